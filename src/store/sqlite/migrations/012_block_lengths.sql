-- 012_block_lengths.sql — the prefix lengths of address_blocks, per family
-- (the key's first byte, 4 or 6). A block containing an address starts at that
-- address masked to the block's length, so the overlap query
-- (store/block_key.h) looks for containing blocks only at the lengths some
-- block has, rather than at every length shorter than the block checked: 3
-- index probes instead of 24 for a /24 among sites, networks and hosts. A
-- trigger adds lengths and nothing removes them: a length no block has any
-- more costs one probe that finds nothing.
CREATE TABLE address_block_lengths (
    family BLOB NOT NULL,
    length INTEGER NOT NULL,
    PRIMARY KEY (family, length)
) WITHOUT ROWID;
INSERT OR IGNORE INTO address_block_lengths
    SELECT DISTINCT substr(lo, 1, 1), CAST(substr(prefix, instr(prefix, '/') + 1) AS INTEGER) FROM address_blocks;
CREATE TRIGGER address_block_length AFTER INSERT ON address_blocks BEGIN
    INSERT OR IGNORE INTO address_block_lengths
        VALUES (substr(NEW.lo, 1, 1), CAST(substr(NEW.prefix, instr(NEW.prefix, '/') + 1) AS INTEGER));
END;
