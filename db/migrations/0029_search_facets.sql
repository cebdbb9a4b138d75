-- 0029_search_facets: the text index holds each bundle's facet values too,
-- so that a count or the facets of a text search with a filter find the
-- bundles holding the words and the value inside one GIN scan (its
-- intersection skips through the longer posting list) instead of visiting
-- every word's match in the heap to test the filter: a 3% word with
-- language=python visited ~5,800 heap pages for 1,001 matches at 1M.
--
-- okf_facets is the bundle's facet values as lexemes ("language=python",
-- "version=0.2", ...) and a sample bucket ("sample=0" .. "sample=63", by a
-- hash of the id): the facets of a search of hundreds of thousands of
-- matches are counted over a few buckets of them, a uniform sample the
-- same GIN scan finds without reading every match.
CREATE FUNCTION okf_facets(id text, origin text, version text, language text, type text, license text, concepts integer)
RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN array_to_tsvector(array_remove(ARRAY[
    'origin=' || origin,
    'version=' || version,
    'language=' || lower(language),
    'type=' || nullif(type, ''),
    'license=' || lower(license),
    'concepts=' || okf_concepts_band(concepts),
    'sample=' || (get_byte(sha256(textsend(id)), 0) & 63)], NULL));

-- The planner reads a partial index's expression without its statistics;
-- these are what it estimates a facet condition by.
CREATE STATISTICS bundles_facets_stats
    ON (okf_facets(id, origin, okf_version, repo_language, type, repo_license, concepts)) FROM bundles;

CREATE INDEX bundles_live_search_facets ON bundles USING gin
    (search, okf_facets(id, origin, okf_version, repo_language, type, repo_license, concepts))
    WHERE visibility = 'live';
DROP INDEX bundles_live_search;
ALTER INDEX bundles_live_search_facets RENAME TO bundles_live_search;
-- The head vector's index too: a count of a word being typed also reads
-- its prefix in names and taglines there.
CREATE INDEX bundles_live_search_head_facets ON bundles USING gin
    (search_head, okf_facets(id, origin, okf_version, repo_language, type, repo_license, concepts))
    WHERE visibility = 'live';
DROP INDEX bundles_live_search_head;
ALTER INDEX bundles_live_search_head_facets RENAME TO bundles_live_search_head;
-- Read the new statistics now: an index that changes little would wait for
-- autovacuum's next analyze (after a tenth of its rows) to have them.
ANALYZE bundles;
