-- 012_block_lengths.sql (PostgreSQL) — as the SQLite schema: the prefix
-- lengths of address_blocks per family, added by a trigger, so that the
-- overlap query probes for containing blocks only at lengths some block has.
CREATE TABLE address_block_lengths (
    family bytea NOT NULL,
    length integer NOT NULL,
    PRIMARY KEY (family, length)
);
INSERT INTO address_block_lengths
    SELECT DISTINCT substring(lo FROM 1 FOR 1), split_part(prefix, '/', 2)::int FROM address_blocks
    ON CONFLICT DO NOTHING;
CREATE FUNCTION address_block_length() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO address_block_lengths VALUES (substring(NEW.lo FROM 1 FOR 1), split_part(NEW.prefix, '/', 2)::int)
        ON CONFLICT DO NOTHING;
    RETURN NULL;
END
$$;
CREATE TRIGGER address_block_length AFTER INSERT ON address_blocks
    FOR EACH ROW EXECUTE FUNCTION address_block_length();
