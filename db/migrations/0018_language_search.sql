-- 0018_language_search: search vectors that know the bundle's language
-- (issue 23; pkg/searchtext cuts the words, pkg/store/search.go reads them).
--
-- Text search configurations, each over unaccent so that accents never
-- matter ("financas" finds "Finanças"):
--   okf_simple        every word as written, lowercased: names and taglines'
--                     exact words, and what the prefix of a typed word meets;
--   okf_<language>    Postgres's snowball stemmer and stop words of that
--                     language: a word meets its other forms ("decorators"
--                     finds "decorator", "notas" finds "nota").
-- A bundle is analysed in one language, lang, that pkg/searchtext.Language
-- detects from its own text (English when nothing stands out, okf_simple
-- when CJK or another unstemmed script dominates); a query is stemmed in
-- every language (searchtext.Stemmed), so it meets a bundle in its own.
-- unaccent stands before the words that hold a letter beyond ASCII (the
-- parser's word, hword and hword_part, and numword and its kin for
-- okf_simple) only: an ASCII word has no accent to remove, and the lookup
-- on every word of every bundle cost ingest more than the stemming.
CREATE EXTENSION IF NOT EXISTS unaccent;

CREATE TEXT SEARCH CONFIGURATION okf_simple (COPY = simple);
ALTER TEXT SEARCH CONFIGURATION okf_simple
    ALTER MAPPING FOR word, hword, hword_part, numword, numhword, hword_numpart
    WITH unaccent, simple;

DO $$
DECLARE
    lang text;
BEGIN
    FOREACH lang IN ARRAY ARRAY['english', 'portuguese', 'spanish', 'french', 'german', 'italian',
            'dutch', 'russian'] LOOP
        EXECUTE format('CREATE TEXT SEARCH CONFIGURATION okf_%s (COPY = %s)', lang, lang);
        EXECUTE format('ALTER TEXT SEARCH CONFIGURATION okf_%s
            ALTER MAPPING FOR word, hword, hword_part WITH unaccent, %s_stem', lang, lang);
    END LOOP;
END $$;

-- okf_configs are the configurations a query word is looked up in: as
-- written, stemmed in English (every bundle's vector holds English stems,
-- see below), and stemmed in lang, the language the query is written in
-- when it is not English (searchtext.Language of q). A word is not looked
-- up in every language: each stem no bundle holds would add its guessed
-- frequency to the planner's estimate of the query (a lexeme missing from
-- the statistics counts as half the rarest listed one), and a few of them
-- made two rare words look common enough to walk a million rows for.
-- lang is the configuration's name, as text: a statement passes it as a
-- constant that the planner folds with the rest (a cast to regconfig in the
-- statement would be a STABLE call, which it does not fold).
CREATE FUNCTION okf_configs(lang text) RETURNS regconfig[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
RETURN CASE WHEN lang IN ('okf_simple', 'okf_english')
    THEN ARRAY['okf_simple', 'okf_english']::regconfig[]
    ELSE ARRAY['okf_simple', 'okf_english', lang]::regconfig[] END;

-- okf_lexemes are the distinct lexemes of w in okf_configs(lang), in that
-- order: its unaccented form first, then its stems. plpgsql and a loop, not
-- a query over unnest: statements fold these functions at plan time, once
-- per place q's terms stand in them (a dozen in a relevance statement), and
-- a SQL function planned its query on every call (~100 us, against ~20 us).
CREATE FUNCTION okf_lexemes(w text, lang text) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE STRICT AS $$
DECLARE
    seen text[] := '{}';
    l text;
    cfg regconfig;
BEGIN
    FOREACH cfg IN ARRAY okf_configs(lang) LOOP
        FOREACH l IN ARRAY tsvector_to_array(to_tsvector(cfg, w)) LOOP
            IF NOT l = ANY(seen) THEN
                seen := seen || l;
            END IF;
        END LOOP;
    END LOOP;
    RETURN seen;
END $$;

-- okf_term is the text query of one word of q: the word as written (it
-- meets names' and taglines' exact words) or its stems, each lexeme once (a
-- lexeme repeated would count its frequency again in the planner's
-- estimate); with prefix, also any name or tagline word it begins (weights
-- A and B: a typed prefix looks for names, and a prefix over descriptions
-- would read a large part of the index for two letters). IMMUTABLE, so that
-- a statement planned with q's value folds it into a constant and the
-- planner sees the lexemes' frequencies. w is letters and digits
-- (searchtext.Term); a word with no lexeme gives the empty query.
CREATE FUNCTION okf_term(w text, prefix boolean, lang text) RETURNS tsquery
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE STRICT AS $$
DECLARE
    lexemes text[] := okf_lexemes(w, lang);
    q text := '';
    l text;
BEGIN
    FOREACH l IN ARRAY lexemes LOOP
        q := q || CASE WHEN q = '' THEN '' ELSE ' | ' END || quote_literal(l);
    END LOOP;
    IF prefix AND q <> '' THEN
        q := q || ' | ' || quote_literal(lexemes[1]) || ':*AB';
    END IF;
    RETURN q::tsquery;
END $$;

-- okf_prefix is the text query of a word that begins a word of the given
-- weights (the concept filter: "event sour" finds "Event Sourcing" in the
-- description and concepts, CD): the start of the word as written or of
-- its English stem, since those weights are indexed stemmed only.
CREATE FUNCTION okf_prefix(w text, weights text) RETURNS tsquery
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE STRICT AS $$
DECLARE
    q text := '';
    l text;
BEGIN
    FOREACH l IN ARRAY okf_lexemes(w, 'okf_english') LOOP
        q := q || CASE WHEN q = '' THEN '' ELSE ' | ' END || quote_literal(l) || ':*' || weights;
    END LOOP;
    RETURN q::tsquery;
END $$;

-- okf_phrase is the text query of words that must stand together, in order
-- (a quoted phrase, a CJK run's bigrams, "react-native"): the phrase as
-- written, or stemmed in English or in lang, each distinct phrase once.
CREATE FUNCTION okf_phrase(words text, lang text) RETURNS tsquery
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE STRICT AS $$
DECLARE
    seen text[] := '{}';
    p text;
    cfg regconfig;
BEGIN
    FOREACH cfg IN ARRAY okf_configs(lang) LOOP
        p := phraseto_tsquery(cfg, words)::text;
        IF p <> '' AND NOT p = ANY(seen) THEN
            seen := seen || p;
        END IF;
    END LOOP;
    RETURN coalesce(array_to_string(array(SELECT '(' || x || ')' FROM unnest(seen) AS x), ' | '), '')::tsquery;
END $$;

-- okf_english_too is text's English stems for a bundle analysed in another
-- language (empty for an English one): every bundle's vector holds its
-- words' English stems, so that a query word meets a foreign bundle's words
-- through English stemming ("notas" and "nota" are both 'nota') whatever
-- language the query is in, and in the bundle's own stems when the query
-- is written in that language.
CREATE FUNCTION okf_english_too(lang regconfig, text text) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
RETURN CASE WHEN lang = 'okf_english'::regconfig THEN ''::tsvector
    ELSE to_tsvector('okf_english', text) END;

-- The vectors are rebuilt from the bundle's language and the words the
-- parser would not make by itself (searchtext.Expand: camelCase parts,
-- "a.b" and "owner/repo" parts, CJK bigrams), which writers store in
-- search_extra, one line per weight: A (name and identifier), B (tagline),
-- C (description), D (concepts). analysis is the version of the analysis
-- that wrote lang and search_extra (store.analysisVersion): a row of an
-- older one is rewritten by the next writer that reads it, even when its
-- content is the same.
ALTER TABLE bundles
    DROP COLUMN search,
    DROP COLUMN search_head,
    ADD COLUMN lang regconfig NOT NULL DEFAULT 'okf_english',
    ADD COLUMN search_extra text NOT NULL DEFAULT '',
    ADD COLUMN analysis smallint NOT NULL DEFAULT 0;
ALTER TABLE bundles ALTER COLUMN search_extra SET STORAGE MAIN;

-- search: every field stemmed in the bundle's language; the name, the
-- identifier and the tagline also as written (so that an exact word and a
-- typed prefix meet them). Weights as before: A name and identifier, B
-- tagline, C description, D concept names and summaries.
-- search_head: the A and B parts alone, from at most 200 + 100 + 100
-- characters (and the stems of the same), the candidates relevance ranks
-- first; it fits in the B-tree that carries it (bundles_live_recent) even
-- for a name of CJK characters (~17 bytes a character with its bigrams).
ALTER TABLE bundles
    ADD COLUMN search tsvector GENERATED ALWAYS AS (
        setweight(
            to_tsvector('okf_simple'::regconfig, name || ' ' || ident || ' ' || split_part(search_extra, E'\n', 1)) ||
            to_tsvector(lang, name || ' ' || ident || ' ' || split_part(search_extra, E'\n', 1)) ||
            okf_english_too(lang, name || ' ' || split_part(search_extra, E'\n', 1)), 'A') ||
        setweight(
            to_tsvector('okf_simple'::regconfig, tagline || ' ' || split_part(search_extra, E'\n', 2)) ||
            to_tsvector(lang, tagline || ' ' || split_part(search_extra, E'\n', 2)) ||
            okf_english_too(lang, tagline), 'B') ||
        setweight(
            to_tsvector(lang, description || ' ' || split_part(search_extra, E'\n', 3)) ||
            okf_english_too(lang, description || ' ' || split_part(search_extra, E'\n', 3)), 'C') ||
        setweight(
            jsonb_to_tsvector(lang, jsonb_path_query_array(concept_list, '$[*].name'), '["string"]') ||
            jsonb_to_tsvector(lang, jsonb_path_query_array(concept_list, '$[*].summary'), '["string"]') ||
            to_tsvector(lang, split_part(search_extra, E'\n', 4)) ||
            CASE WHEN lang = 'okf_english'::regconfig THEN ''::tsvector ELSE
                jsonb_to_tsvector('okf_english', jsonb_path_query_array(concept_list, '$[*].name'), '["string"]') ||
                jsonb_to_tsvector('okf_english', jsonb_path_query_array(concept_list, '$[*].summary'), '["string"]') END,
            'D')
    ) STORED,
    ADD COLUMN search_head tsvector GENERATED ALWAYS AS (
        setweight(
            to_tsvector('okf_simple'::regconfig, left(name || ' ' || ident, 200) || ' ' || left(split_part(search_extra, E'\n', 1), 100)) ||
            to_tsvector(lang, left(name || ' ' || ident, 200) || ' ' || left(split_part(search_extra, E'\n', 1), 100)), 'A') ||
        setweight(
            to_tsvector('okf_simple'::regconfig, left(tagline, 100) || ' ' || left(split_part(search_extra, E'\n', 2), 60)) ||
            to_tsvector(lang, left(tagline, 100) || ' ' || left(split_part(search_extra, E'\n', 2), 60)), 'B')
    ) STORED;

-- As 0001_schema: the vectors stay in the heap row (a TOAST fetch per row
-- would cost a filtered walk more than the rest of it), the planner keeps
-- 10,000 lexemes' frequencies of each.
ALTER TABLE bundles ALTER COLUMN search SET STORAGE MAIN;
ALTER TABLE bundles ALTER COLUMN search_head SET STORAGE MAIN;
ALTER TABLE bundles ALTER COLUMN search SET COMPRESSION lz4;
ALTER TABLE bundles ALTER COLUMN search SET STATISTICS 1000;
ALTER TABLE bundles ALTER COLUMN search_head SET STATISTICS 1000;

CREATE INDEX bundles_live_recent ON bundles (indexed_at DESC, id) INCLUDE (search_head)
    WHERE visibility = 'live';
CREATE INDEX bundles_live_search ON bundles USING gin (search) WHERE visibility = 'live';
CREATE INDEX bundles_live_search_head ON bundles USING gin (search_head) WHERE visibility = 'live';
