-- 0026_contact_free: the free first agent message is per account (every
-- key of it) and per keyless client, and only a message sent free spends
-- it: a row of contact_agents also exists for an agent that paid or was
-- refused, so free_used says whether the free one is gone. Rows written
-- before could have been made by any of those: counted as spent.
ALTER TABLE contact_agents DROP CONSTRAINT contact_agents_agent_check;
ALTER TABLE contact_agents ADD CONSTRAINT contact_agents_agent_check CHECK (char_length(agent) <= 220);
ALTER TABLE contact_agents ADD COLUMN free_used boolean NOT NULL DEFAULT false;
UPDATE contact_agents SET free_used = true;

-- Agents were recognised by their key ("key:<id>"); now by the account that
-- owns it ("account:<identity>", or "org:<organization>" for an
-- organization's key). Folded with the earliest first message kept and the
-- free message spent when any key had spent it.
INSERT INTO contact_agents (agent, first_at, refusals, blocked_until, free_used)
SELECT CASE WHEN k.organization_id IS NULL THEN 'account:' || k.identity_id ELSE 'org:' || k.organization_id END,
       min(a.first_at), max(a.refusals), max(a.blocked_until), bool_or(a.free_used)
FROM contact_agents a JOIN api_keys k ON a.agent = 'key:' || k.id::text
GROUP BY 1
ON CONFLICT (agent) DO UPDATE SET free_used = contact_agents.free_used OR excluded.free_used;
DELETE FROM contact_agents WHERE agent LIKE 'key:%';
