-- 0020_reserved: keeps the versions consecutive on the branch that added
-- 0021_bounded while 0020 was assigned to other work; it does nothing, and
-- goes away when that work's 0020 is merged.
SELECT 1;
