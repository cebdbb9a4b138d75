-- 0030_inline_functions: two functions of the write path become ones the
-- planner inlines, with the same values, so no index or statistic changes.
-- A SQL function is inlined into the expression that calls it unless its
-- body is more volatile than it is declared, or it is strict and its body
-- is not. Not inlined, its body is planned once per statement that calls
-- it: a write of one bundle planned okf_facets for both text indexes and
-- okf_english_too for each of its uses, ~200 us of a ~1.5 ms insert.
--
-- okf_facets hashed textsend(id), which is stable (it sends the text in the
-- client's encoding). The id's bytes in the database's encoding (UTF-8,
-- as pgcluster and the deployment create it; the client's is UTF-8 too)
-- are what decode gives of the id with its backslashes escaped: the same
-- bytes, so the same bucket, from immutable functions only. Its integer
-- is cast to text, not concatenated (text || integer is stable too).
CREATE OR REPLACE FUNCTION okf_facets(id text, origin text, version text, language text, type text, license text, concepts integer)
RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN array_to_tsvector(array_remove(ARRAY[
    'origin=' || origin,
    'version=' || version,
    'language=' || lower(language),
    'type=' || nullif(type, ''),
    'license=' || lower(license),
    'concepts=' || okf_concepts_band(concepts),
    'sample=' || (get_byte(sha256(decode(replace(id, '\', '\\'), 'escape')), 0) & 63)::text], NULL));

-- Its arguments are never null (bundles.lang and the text columns it is
-- given are NOT NULL), so without STRICT it returns what it did.
CREATE OR REPLACE FUNCTION okf_english_too(lang regconfig, text text) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE CALLED ON NULL INPUT
RETURN CASE WHEN lang = 'okf_english'::regconfig THEN ''::tsvector
    ELSE to_tsvector('okf_english', text) END;
