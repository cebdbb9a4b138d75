-- 0017_bundle_storage: the short columns of bundles stay in the heap row.
--
-- A bundles row holds its search vector (STORAGE MAIN, 0001_schema) of a few
-- kilobytes, so the row is over the 2 kB TOAST threshold even after the
-- description and concept list leave it. Postgres then moves out of line,
-- biggest first, every EXTENDED value still in the row and larger than a
-- TOAST pointer (24 bytes), before it ever touches a MAIN column: the id,
-- the root and content hashes, the URLs, the origin identifier... nine or
-- ten values a bundle, each a row of the TOAST table and an entry of its
-- index. Every write paid those inserts, and every read of such a column
-- one TOAST index probe: the duplicate rule's sort on root_sha256
-- (reconcile, visibility.go) read about 75 TOAST pages a bundle, and the
-- writers' reads of content_hash and root_sha256 as many.
--
-- MAIN keeps them in the row: compressed if that helps, moved out only
-- when the row would not fit a page otherwise (never, for these sizes).
-- Only the description and the concept list (the big values, which only
-- cards read) go to TOAST, as 0001_schema meant. Catalog only: no rewrite;
-- rows written before keep their values out of line until rewritten.
ALTER TABLE bundles
    ALTER COLUMN id SET STORAGE MAIN,
    ALTER COLUMN visibility SET STORAGE MAIN,
    ALTER COLUMN name SET STORAGE MAIN,
    ALTER COLUMN tagline SET STORAGE MAIN,
    ALTER COLUMN okf_version SET STORAGE MAIN,
    ALTER COLUMN type SET STORAGE MAIN,
    ALTER COLUMN index_url SET STORAGE MAIN,
    ALTER COLUMN page_url SET STORAGE MAIN,
    ALTER COLUMN origin SET STORAGE MAIN,
    ALTER COLUMN via SET STORAGE MAIN,
    ALTER COLUMN source_url SET STORAGE MAIN,
    ALTER COLUMN host SET STORAGE MAIN,
    ALTER COLUMN repo SET STORAGE MAIN,
    ALTER COLUMN dir SET STORAGE MAIN,
    ALTER COLUMN path SET STORAGE MAIN,
    ALTER COLUMN ident SET STORAGE MAIN,
    ALTER COLUMN repo_state SET STORAGE MAIN,
    ALTER COLUMN repo_language SET STORAGE MAIN,
    ALTER COLUMN repo_license SET STORAGE MAIN,
    ALTER COLUMN root_sha256 SET STORAGE MAIN,
    ALTER COLUMN content_hash SET STORAGE MAIN,
    ALTER COLUMN gone_reason SET STORAGE MAIN;
