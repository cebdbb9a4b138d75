-- 0028_repo_path: the repository index carries the path, in the owner and
-- repository pages' order (repo, path COLLATE "C"), so a page of a
-- repository of thousands of bundles reads its first 201 in order and
-- stops, instead of reading and sorting all of them (1,524 rows for the
-- largest repository of the benchmark's million). Lookups by repository
-- alone read its first column as they read bundles_repo.
CREATE INDEX bundles_repo_path ON bundles (repo, path COLLATE "C") WHERE repo IS NOT NULL;
DROP INDEX bundles_repo;
