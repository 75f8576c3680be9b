-- 016_token_app_rule.sql — tokens.app_id without a foreign key. The key made
-- every token insert lock its app's row FOR KEY SHARE: with the token
-- endpoints running beside each other (the shared write lock), every insert
-- of one app's tokens created a new MultiXact holding all the lockers of
-- that row (~30 us of the server's CPU a token, issue 37). The rule stays:
-- a token is inserted only for the app its transaction read under the write
-- lock (api/oauth/common.c), apps are never deleted by parapet, and the
-- database itself refuses to delete (or rename, or truncate) an app that
-- still has tokens, as the key's ON DELETE RESTRICT did.
--
-- tokens.type's rule moves from a CHECK constraint to a domain: PostgreSQL
-- 15 reads and plans a table's CHECK expressions again at every INSERT
-- (ExecRelCheck), ~10 us a token; a domain's check is planned once and kept
-- in its type cache. The same rule (1 access, 2 refresh), the same
-- SQLSTATE (23514) when broken; the table is rewritten once.
ALTER TABLE tokens DROP CONSTRAINT tokens_app_id_fkey;

CREATE DOMAIN token_type AS integer CHECK (VALUE IN (1, 2));
ALTER TABLE tokens DROP CONSTRAINT tokens_type_check, ALTER COLUMN type TYPE token_type;

CREATE FUNCTION apps_keep_tokens() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        IF EXISTS (SELECT 1 FROM tokens) THEN
            RAISE foreign_key_violation USING MESSAGE = 'apps: tokens refer to them';
        END IF;
        RETURN NULL;
    END IF;
    IF EXISTS (SELECT 1 FROM tokens WHERE app_id = OLD.id) THEN
        RAISE foreign_key_violation USING MESSAGE = format('app %s: tokens refer to it', OLD.id);
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER apps_keep_tokens_delete BEFORE DELETE ON apps
    FOR EACH ROW EXECUTE FUNCTION apps_keep_tokens();
CREATE TRIGGER apps_keep_tokens_rename BEFORE UPDATE OF id ON apps
    FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION apps_keep_tokens();
CREATE TRIGGER apps_keep_tokens_truncate BEFORE TRUNCATE ON apps
    FOR EACH STATEMENT EXECUTE FUNCTION apps_keep_tokens();
