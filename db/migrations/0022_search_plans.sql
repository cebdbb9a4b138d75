-- 0022_search_plans: every filter with every sort bounded (pkg/store/search.go).
--
-- The stars order (sort=stars, and relevance's walk of the most starred
-- bundles) walked bundles_live_stars and checked the origin of each row:
-- bundles of origin domain have no repository and so no stars, and sit
-- after every starred bundle in that order, so a walk for them passed every
-- code host bundle first (seconds at a million bundles). With the origin
-- leading the key, a walk of one origin reads that origin's bundles alone,
-- in the stars order. The index also answers the origin filter alone, which
-- bundles_live_origin answered.
CREATE INDEX bundles_live_origin_stars ON bundles (origin, repo_stars DESC NULLS LAST, id) WHERE visibility = 'live';
DROP INDEX bundles_live_origin;
