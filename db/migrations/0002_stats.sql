-- 0002_stats: the statistics summary (IndexStats) kept by the writers of
-- bundles, so that reading statistics never scans bundles.
--
-- bundle_facets holds, per facet and value, the number of live bundles.
-- Statement-level triggers with transition tables add the deltas of each
-- INSERT, UPDATE or DELETE on bundles (a COPY of a million rows is one
-- aggregate, not a million counter updates). Rows whose count drops to zero
-- stay until store.RecountStats rebuilds the table; readers skip them.
--
-- Facets (value of one live bundle):
--   total     ''                       every live bundle
--   origin    code_host | domain
--   version   okf_version
--   type      declared type            bundles without one are not counted
--   concepts  okf_concepts_band()      0, 1-5, 6-20, 21-100, 101+
--   license   repo_license             'unknown' when absent (domain bundles too)
--   language  repo_language            repository bundles whose host reports one
CREATE TABLE bundle_facets (
    facet text NOT NULL,
    value text NOT NULL,
    n     bigint NOT NULL,
    PRIMARY KEY (facet, value)
);

-- Stats reads the top entries of each facet from this index.
CREATE INDEX bundle_facets_top ON bundle_facets (facet, n DESC, value);

-- okf_facets lists the (facet, value) pairs one live bundle counts in.
CREATE FUNCTION okf_facets(origin text, okf_version text, type text, concepts integer,
                           repo text, license text, language text)
RETURNS TABLE (facet text, value text)
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT v.facet, v.value
    FROM (VALUES
        ('total', ''),
        ('origin', origin),
        ('version', okf_version),
        ('type', nullif(type, '')),
        ('concepts', okf_concepts_band(concepts)),
        ('license', coalesce(nullif(license, ''), 'unknown')),
        ('language', CASE WHEN repo IS NOT NULL THEN nullif(language, '') END)
    ) AS v (facet, value)
    WHERE v.value IS NOT NULL
$$;

-- The three trigger functions add the signed counts of the live rows that a
-- statement removed (old_rows) and added (new_rows). Counters are updated in
-- (facet, value) order so that concurrent writers never deadlock on them.
CREATE FUNCTION okf_bundle_facets_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO bundle_facets AS t (facet, value, n)
    SELECT f.facet, f.value, count(*)
    FROM new_rows AS d,
         LATERAL okf_facets(d.origin, d.okf_version, d.type, d.concepts,
                            d.repo, d.repo_license, d.repo_language) AS f
    WHERE d.visibility = 'live'
    GROUP BY f.facet, f.value
    ORDER BY f.facet, f.value
    ON CONFLICT (facet, value) DO UPDATE SET n = t.n + excluded.n;
    RETURN NULL;
END
$$;

CREATE FUNCTION okf_bundle_facets_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO bundle_facets AS t (facet, value, n)
    SELECT f.facet, f.value, -count(*)
    FROM old_rows AS d,
         LATERAL okf_facets(d.origin, d.okf_version, d.type, d.concepts,
                            d.repo, d.repo_license, d.repo_language) AS f
    WHERE d.visibility = 'live'
    GROUP BY f.facet, f.value
    ORDER BY f.facet, f.value
    ON CONFLICT (facet, value) DO UPDATE SET n = t.n + excluded.n;
    RETURN NULL;
END
$$;

CREATE FUNCTION okf_bundle_facets_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO bundle_facets AS t (facet, value, n)
    SELECT f.facet, f.value, sum(d.s)
    FROM (
        SELECT 1 AS s, origin, okf_version, type, concepts, repo, repo_license, repo_language
        FROM new_rows WHERE visibility = 'live'
        UNION ALL
        SELECT -1, origin, okf_version, type, concepts, repo, repo_license, repo_language
        FROM old_rows WHERE visibility = 'live'
    ) AS d,
         LATERAL okf_facets(d.origin, d.okf_version, d.type, d.concepts,
                            d.repo, d.repo_license, d.repo_language) AS f
    GROUP BY f.facet, f.value
    HAVING sum(d.s) <> 0
    ORDER BY f.facet, f.value
    ON CONFLICT (facet, value) DO UPDATE SET n = t.n + excluded.n;
    RETURN NULL;
END
$$;

CREATE TRIGGER bundles_facets_insert AFTER INSERT ON bundles
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION okf_bundle_facets_insert();
CREATE TRIGGER bundles_facets_update AFTER UPDATE ON bundles
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION okf_bundle_facets_update();
CREATE TRIGGER bundles_facets_delete AFTER DELETE ON bundles
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION okf_bundle_facets_delete();

-- okf_recount_facets rebuilds bundle_facets from bundles. Writers wait while
-- it runs (EXCLUSIVE blocks their trigger's counter updates, not readers),
-- so no delta is lost or counted twice.
CREATE FUNCTION okf_recount_facets() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    LOCK TABLE bundle_facets IN EXCLUSIVE MODE;
    DELETE FROM bundle_facets;
    INSERT INTO bundle_facets (facet, value, n)
    SELECT f.facet, f.value, count(*)
    FROM bundles AS d,
         LATERAL okf_facets(d.origin, d.okf_version, d.type, d.concepts,
                            d.repo, d.repo_license, d.repo_language) AS f
    WHERE d.visibility = 'live'
    GROUP BY f.facet, f.value;
END
$$;
