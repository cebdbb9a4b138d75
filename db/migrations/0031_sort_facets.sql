-- 0031_sort_facets: a walk of a sort index tests the facet filters in the
-- index.
--
-- A sorted search with a filter (language=rust by stars, version=0.3 by
-- update, relevance's walk of the 1,000 most starred bundles of a language)
-- walked its sort index and read each row in the heap to test the filter:
-- ~18,000 rows for the 1,000 most starred bundles of a language held by 4%
-- of them, 0.1-1 s at a million bundles. With the facet values after the
-- sort's keys, an equality on one of them (searchsql.go's oneOf writes a
-- filter of one value so) is tested on the index's entry, and the heap is
-- read for the rows that pass. The keys after id never change the order.
-- Origin leads bundles_live_origin_stars, the stars order's other index
-- (0022), so stars leaves it out.
DROP INDEX bundles_live_stars;
CREATE INDEX bundles_live_stars ON bundles (repo_stars DESC NULLS LAST, id,
    okf_version, lower(repo_language), type, lower(repo_license), okf_concepts_band(concepts))
    WHERE visibility = 'live';

DROP INDEX bundles_live_updated;
CREATE INDEX bundles_live_updated ON bundles (updated_at DESC, id,
    origin, okf_version, lower(repo_language), type, lower(repo_license), okf_concepts_band(concepts))
    WHERE visibility = 'live';

DROP INDEX bundles_live_name;
CREATE INDEX bundles_live_name ON bundles (lower(name) COLLATE "C", id,
    origin, okf_version, lower(repo_language), type, lower(repo_license), okf_concepts_band(concepts))
    WHERE visibility = 'live';

-- The recency order's index also carries the head vector, which relevance's
-- newest head matches read without the heap (an index-only scan); such a
-- scan needs every column its conditions name in the index, and Postgres
-- does not see that lower(repo_license) needs no repo_license: the columns
-- under the facets' expressions are included too.
DROP INDEX bundles_live_recent;
CREATE INDEX bundles_live_recent ON bundles (indexed_at DESC, id,
    origin, okf_version, lower(repo_language), type, lower(repo_license), okf_concepts_band(concepts))
    INCLUDE (search_head, repo_language, repo_license, concepts) WHERE visibility = 'live';
