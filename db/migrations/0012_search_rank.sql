-- 0012_search_rank: the exact tier of relevance (store/search.go).
--
-- okf_name_key is the form in which q and a bundle's names are compared for
-- the exact tier: lowercase, every run of spaces and separators (- _ . / :)
-- one space, no surrounding space. "Acme/Widgets", "acme widgets" and
-- "acme-widgets " are the same key.
CREATE FUNCTION okf_name_key(t text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN btrim(regexp_replace(lower(t), '[[:space:]_./:-]+', ' ', 'g'));

-- okf_exact_keys are the keys q must equal for a bundle to enter the exact
-- tier: its name, its repository owner/repo, its repository name and its id.
-- A domain bundle has no repository: its name and id only.
CREATE FUNCTION okf_exact_keys(name text, repo text, id text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN array_remove(ARRAY[okf_name_key(name), okf_name_key(repo),
    okf_name_key(split_part(repo, '/', 2)), okf_name_key(id)], NULL);

-- The exact tier reads this index: one probe whatever the size.
CREATE INDEX bundles_live_exact ON bundles USING gin (okf_exact_keys(name, repo, id))
    WHERE visibility = 'live';
