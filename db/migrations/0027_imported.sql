-- 0027_imported: whether a bundle entered (or last changed) through
-- okfctl import, an operator's copy of repositories, rather than the
-- sweep or a ping. Not part of the card: the contract's source.via names
-- the sweep or IndexNow only, and an import writes through the sweep's
-- path (via = 'sweep'). The web page says "Imported" from it.
ALTER TABLE bundles ADD COLUMN imported boolean NOT NULL DEFAULT false;
