-- 0033_turkish: a bundle written in Turkish is stemmed in Turkish (issue 23).
--
-- Before, Turkish text was analysed as English (searchtext.Language knew no
-- Turkish stop words), so "çocuklar" did not meet "çocuk". okf_turkish is
-- built as 0018 built the others: Postgres's Turkish Snowball stemmer and
-- stop words, after unaccent (which also maps the dotless ı to i, as
-- searchtext's fold does). Rows in Turkish are analysed anew by the next
-- writer, as store.analysisVersion says; catalog only.
CREATE TEXT SEARCH CONFIGURATION okf_turkish (COPY = turkish);
ALTER TEXT SEARCH CONFIGURATION okf_turkish
    ALTER MAPPING FOR word, hword, hword_part WITH unaccent, turkish_stem;
