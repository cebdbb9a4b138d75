-- 0027_owner_pages: the owner page (/o/<owner>) lists every bundle of an
-- owner's repositories; this index finds them by the owner part of repo
-- without reading every repository bundle (store.OwnerBundles).
CREATE INDEX bundles_repo_owner ON bundles (split_part(repo, '/', 1), repo, path) WHERE repo IS NOT NULL AND visibility <> 'hidden';
