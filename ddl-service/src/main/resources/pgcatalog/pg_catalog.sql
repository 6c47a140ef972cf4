-- The part of PostgreSQL's pg_catalog that psql's \l \dn \d \dt \d+ and pgJDBC's DatabaseMetaData
-- read, as H2 tables in the schema mtpg (queries name pg_catalog; PgCatalogSql renames it). Columns
-- are PostgreSQL 15's, with oid, name, "char" and regclass as H2's nearest types. Tables a client
-- reads but mtables has nothing for (policies, publications, inheritance, ...) stay empty.
CREATE SCHEMA mtpg;
SET SCHEMA_SEARCH_PATH mtpg, public;

CREATE DOMAIN mtpg.regclass AS INTEGER;
CREATE DOMAIN mtpg.regtype AS INTEGER;
CREATE DOMAIN mtpg.regproc AS INTEGER;
CREATE DOMAIN mtpg.regrole AS INTEGER;
CREATE DOMAIN mtpg.regnamespace AS INTEGER;
CREATE DOMAIN mtpg.oid AS INTEGER;
CREATE DOMAIN mtpg.name AS VARCHAR;
CREATE DOMAIN mtpg.text AS VARCHAR;
CREATE DOMAIN mtpg."char" AS VARCHAR;

CREATE TABLE mtpg.pg_database (oid INTEGER, datname VARCHAR, datdba INTEGER, encoding INTEGER,
  datlocprovider VARCHAR, datistemplate BOOLEAN, datallowconn BOOLEAN, datconnlimit INTEGER,
  dattablespace INTEGER, datcollate VARCHAR, datctype VARCHAR, daticulocale VARCHAR,
  datcollversion VARCHAR, datacl VARCHAR ARRAY);
CREATE TABLE mtpg.pg_namespace (oid INTEGER, nspname VARCHAR, nspowner INTEGER, nspacl VARCHAR ARRAY);
CREATE TABLE mtpg.pg_roles (oid INTEGER, rolname VARCHAR, rolsuper BOOLEAN, rolinherit BOOLEAN,
  rolcreaterole BOOLEAN, rolcreatedb BOOLEAN, rolcanlogin BOOLEAN, rolreplication BOOLEAN,
  rolconnlimit INTEGER, rolpassword VARCHAR, rolvaliduntil TIMESTAMP WITH TIME ZONE,
  rolbypassrls BOOLEAN, rolconfig VARCHAR ARRAY);
CREATE VIEW mtpg.pg_user AS SELECT rolname AS usename, oid AS usesysid, rolcreatedb AS usecreatedb,
  rolsuper AS usesuper, rolreplication AS userepl, rolbypassrls AS usebypassrls,
  rolpassword AS passwd, rolvaliduntil AS valuntil, rolconfig AS useconfig FROM mtpg.pg_roles;
CREATE VIEW mtpg.pg_authid AS SELECT * FROM mtpg.pg_roles;
CREATE TABLE mtpg.pg_class (oid INTEGER, relname VARCHAR, relnamespace INTEGER, reltype INTEGER,
  reloftype INTEGER, relowner INTEGER, relam INTEGER, relfilenode INTEGER, reltablespace INTEGER,
  relpages INTEGER, reltuples REAL, relallvisible INTEGER, reltoastrelid INTEGER,
  relhasindex BOOLEAN, relisshared BOOLEAN, relpersistence VARCHAR, relkind VARCHAR,
  relnatts SMALLINT, relchecks SMALLINT, relhasrules BOOLEAN, relhastriggers BOOLEAN,
  relhassubclass BOOLEAN, relrowsecurity BOOLEAN, relforcerowsecurity BOOLEAN,
  relispopulated BOOLEAN, relreplident VARCHAR, relispartition BOOLEAN, relrewrite INTEGER,
  relfrozenxid INTEGER, relminmxid INTEGER, relacl VARCHAR ARRAY, reloptions VARCHAR ARRAY,
  relpartbound VARCHAR);
CREATE TABLE mtpg.pg_attribute (attrelid INTEGER, attname VARCHAR, atttypid INTEGER,
  attstattarget INTEGER, attlen SMALLINT, attnum SMALLINT, attndims INTEGER, attcacheoff INTEGER,
  atttypmod INTEGER, attbyval BOOLEAN, attalign VARCHAR, attstorage VARCHAR,
  attcompression VARCHAR, attnotnull BOOLEAN, atthasdef BOOLEAN, atthasmissing BOOLEAN,
  attidentity VARCHAR, attgenerated VARCHAR, attisdropped BOOLEAN, attislocal BOOLEAN,
  attinhcount INTEGER, attcollation INTEGER, attacl VARCHAR ARRAY, attoptions VARCHAR ARRAY,
  attfdwoptions VARCHAR ARRAY, attmissingval VARCHAR);
CREATE TABLE mtpg.pg_type (oid INTEGER, typname VARCHAR, typnamespace INTEGER, typowner INTEGER,
  typlen SMALLINT, typbyval BOOLEAN, typtype VARCHAR, typcategory VARCHAR, typispreferred BOOLEAN,
  typisdefined BOOLEAN, typdelim VARCHAR, typrelid INTEGER, typsubscript INTEGER, typelem INTEGER,
  typarray INTEGER, typinput VARCHAR, typoutput VARCHAR, typreceive VARCHAR, typsend VARCHAR,
  typalign VARCHAR, typstorage VARCHAR, typnotnull BOOLEAN, typbasetype INTEGER,
  typtypmod INTEGER, typndims INTEGER, typcollation INTEGER, typdefault VARCHAR,
  typacl VARCHAR ARRAY);
CREATE TABLE mtpg.pg_index (indexrelid INTEGER, indrelid INTEGER, indnatts SMALLINT,
  indnkeyatts SMALLINT, indisunique BOOLEAN, indnullsnotdistinct BOOLEAN, indisprimary BOOLEAN,
  indisexclusion BOOLEAN, indimmediate BOOLEAN, indisclustered BOOLEAN, indisvalid BOOLEAN,
  indcheckxmin BOOLEAN, indisready BOOLEAN, indislive BOOLEAN, indisreplident BOOLEAN,
  indkey SMALLINT ARRAY, indcollation INTEGER ARRAY, indclass INTEGER ARRAY,
  indoption SMALLINT ARRAY, indexprs VARCHAR, indpred VARCHAR);
CREATE TABLE mtpg.pg_constraint (oid INTEGER, conname VARCHAR, connamespace INTEGER,
  contype VARCHAR, condeferrable BOOLEAN, condeferred BOOLEAN, convalidated BOOLEAN,
  conrelid INTEGER, contypid INTEGER, conindid INTEGER, conparentid INTEGER, confrelid INTEGER,
  confupdtype VARCHAR, confdeltype VARCHAR, confmatchtype VARCHAR, conislocal BOOLEAN,
  coninhcount INTEGER, connoinherit BOOLEAN, conkey SMALLINT ARRAY, confkey SMALLINT ARRAY,
  conpfeqop INTEGER ARRAY, conppeqop INTEGER ARRAY, conffeqop INTEGER ARRAY,
  confdelsetcols SMALLINT ARRAY, conexclop INTEGER ARRAY, conbin VARCHAR);
CREATE TABLE mtpg.pg_description (objoid INTEGER, classoid INTEGER, objsubid INTEGER,
  description VARCHAR);
CREATE TABLE mtpg.pg_am (oid INTEGER, amname VARCHAR, amhandler VARCHAR, amtype VARCHAR);
CREATE TABLE mtpg.pg_tablespace (oid INTEGER, spcname VARCHAR, spcowner INTEGER,
  spcacl VARCHAR ARRAY, spcoptions VARCHAR ARRAY);
CREATE TABLE mtpg.pg_collation (oid INTEGER, collname VARCHAR, collnamespace INTEGER,
  collowner INTEGER, collprovider VARCHAR, collisdeterministic BOOLEAN, collencoding INTEGER,
  collcollate VARCHAR, collctype VARCHAR, colliculocale VARCHAR, collversion VARCHAR);
CREATE TABLE mtpg.pg_attrdef (oid INTEGER, adrelid INTEGER, adnum SMALLINT, adbin VARCHAR);
CREATE TABLE mtpg.pg_policy (oid INTEGER, polname VARCHAR, polrelid INTEGER, polcmd VARCHAR,
  polpermissive BOOLEAN, polroles INTEGER ARRAY, polqual VARCHAR, polwithcheck VARCHAR);
CREATE TABLE mtpg.pg_statistic_ext (oid INTEGER, stxrelid INTEGER, stxname VARCHAR,
  stxnamespace INTEGER, stxowner INTEGER, stxstattarget INTEGER, stxkeys SMALLINT ARRAY,
  stxkind VARCHAR ARRAY, stxexprs VARCHAR);
CREATE TABLE mtpg.pg_publication (oid INTEGER, pubname VARCHAR, pubowner INTEGER,
  puballtables BOOLEAN, pubinsert BOOLEAN, pubupdate BOOLEAN, pubdelete BOOLEAN,
  pubtruncate BOOLEAN, pubviaroot BOOLEAN);
CREATE TABLE mtpg.pg_publication_namespace (oid INTEGER, pnpubid INTEGER, pnnspid INTEGER);
CREATE TABLE mtpg.pg_publication_rel (oid INTEGER, prpubid INTEGER, prrelid INTEGER,
  prqual VARCHAR, prattrs SMALLINT ARRAY);
CREATE TABLE mtpg.pg_inherits (inhrelid INTEGER, inhparent INTEGER, inhseqno INTEGER,
  inhdetachpending BOOLEAN);
CREATE TABLE mtpg.pg_trigger (oid INTEGER, tgrelid INTEGER, tgparentid INTEGER, tgname VARCHAR,
  tgfoid INTEGER, tgtype SMALLINT, tgenabled VARCHAR, tgisinternal BOOLEAN,
  tgconstrrelid INTEGER, tgconstrindid INTEGER, tgconstraint INTEGER, tgdeferrable BOOLEAN,
  tginitdeferred BOOLEAN, tgnargs SMALLINT, tgattr SMALLINT ARRAY, tgargs VARCHAR,
  tgqual VARCHAR, tgoldtable VARCHAR, tgnewtable VARCHAR);
CREATE TABLE mtpg.pg_rewrite (oid INTEGER, rulename VARCHAR, ev_class INTEGER, ev_type VARCHAR,
  ev_enabled VARCHAR, is_instead BOOLEAN, ev_qual VARCHAR, ev_action VARCHAR);
CREATE TABLE mtpg.pg_foreign_table (ftrelid INTEGER, ftserver INTEGER, ftoptions VARCHAR ARRAY);
CREATE TABLE mtpg.pg_partitioned_table (partrelid INTEGER, partstrat VARCHAR, partnatts SMALLINT,
  partdefid INTEGER, partattrs SMALLINT ARRAY);
CREATE TABLE mtpg.pg_extension (oid INTEGER, extname VARCHAR, extowner INTEGER,
  extnamespace INTEGER, extrelocatable BOOLEAN, extversion VARCHAR);
CREATE TABLE mtpg.pg_proc (oid INTEGER, proname VARCHAR, pronamespace INTEGER, proowner INTEGER,
  prolang INTEGER, prokind VARCHAR, proretset BOOLEAN, prorettype INTEGER, pronargs SMALLINT,
  proargtypes INTEGER ARRAY, proargnames VARCHAR ARRAY, prosrc VARCHAR);
CREATE TABLE mtpg.pg_settings (name VARCHAR, setting VARCHAR, unit VARCHAR, category VARCHAR,
  short_desc VARCHAR, context VARCHAR, vartype VARCHAR, source VARCHAR);

-- PostgreSQL's catalog functions the clients call: PgCatalogFunctions.
CREATE ALIAS mtpg.pg_get_userbyid FOR 'io.mtables.ddl.pgcatalog.PgCatalogFunctions.userById';
CREATE ALIAS mtpg.pg_encoding_to_char FOR 'io.mtables.ddl.pgcatalog.PgCatalogFunctions.encodingName';
CREATE ALIAS mtpg.pg_table_is_visible FOR 'io.mtables.ddl.pgcatalog.PgCatalogFunctions.visible';
CREATE ALIAS mtpg.pg_type_is_visible FOR 'io.mtables.ddl.pgcatalog.PgCatalogFunctions.visible';
CREATE ALIAS mtpg.pg_function_is_visible FOR 'io.mtables.ddl.pgcatalog.PgCatalogFunctions.visible';
CREATE ALIAS mtpg.format_type FOR 'io.mtables.ddl.pgcatalog.PgCatalogFunctions.formatType';
CREATE ALIAS mtpg.pg_get_expr FOR 'io.mtables.ddl.pgcatalog.PgCatalogFunctions.expression';
CREATE ALIAS mtpg.pg_get_indexdef FOR 'io.mtables.ddl.pgcatalog.PgCatalogFunctions.indexDefinition';
CREATE ALIAS mtpg.pg_get_constraintdef FOR 'io.mtables.ddl.pgcatalog.PgCatalogFunctions.constraintDefinition';
CREATE ALIAS mtpg.col_description FOR 'io.mtables.ddl.pgcatalog.PgCatalogFunctions.columnDescription';
CREATE ALIAS mtpg.obj_description FOR 'io.mtables.ddl.pgcatalog.PgCatalogFunctions.objectDescription';
CREATE ALIAS mtpg.shobj_description FOR 'io.mtables.ddl.pgcatalog.PgCatalogFunctions.objectDescription';
CREATE ALIAS mtpg.pg_relation_is_publishable FOR 'io.mtables.ddl.pgcatalog.PgCatalogFunctions.never';
CREATE ALIAS mtpg.pg_get_statisticsobjdef_columns FOR 'io.mtables.ddl.pgcatalog.PgCatalogFunctions.none';
CREATE ALIAS mtpg.pg_get_partkeydef FOR 'io.mtables.ddl.pgcatalog.PgCatalogFunctions.none';
CREATE ALIAS mtpg.pg_get_viewdef FOR 'io.mtables.ddl.pgcatalog.PgCatalogFunctions.none';
CREATE ALIAS mtpg.pg_get_triggerdef FOR 'io.mtables.ddl.pgcatalog.PgCatalogFunctions.none';
CREATE ALIAS mtpg.pg_tablespace_location FOR 'io.mtables.ddl.pgcatalog.PgCatalogFunctions.none';
CREATE ALIAS mtpg.pg_table_size FOR 'io.mtables.ddl.pgcatalog.PgCatalogFunctions.size';
CREATE ALIAS mtpg.pg_relation_size FOR 'io.mtables.ddl.pgcatalog.PgCatalogFunctions.size';
CREATE ALIAS mtpg.pg_total_relation_size FOR 'io.mtables.ddl.pgcatalog.PgCatalogFunctions.size';
CREATE ALIAS mtpg.pg_size_pretty FOR 'io.mtables.ddl.pgcatalog.PgCatalogFunctions.sizePretty';
CREATE ALIAS mtpg.current_schemas FOR 'io.mtables.ddl.pgcatalog.PgCatalogFunctions.currentSchemas';
CREATE ALIAS mtpg.database_name FOR 'io.mtables.ddl.pgcatalog.PgCatalogFunctions.databaseName';
CREATE ALIAS mtpg.array_upper FOR 'io.mtables.ddl.pgcatalog.PgCatalogFunctions.arrayUpper';
CREATE ALIAS mtpg.array_to_string FOR 'io.mtables.ddl.pgcatalog.PgCatalogFunctions.arrayToString';
CREATE ALIAS mtpg.key_position FOR 'io.mtables.ddl.pgcatalog.PgCatalogFunctions.keyPosition';
CREATE ALIAS mtpg.regclass_of FOR 'io.mtables.ddl.pgcatalog.PgCatalogFunctions.regclassOf';
CREATE ALIAS mtpg.has_table_privilege FOR 'io.mtables.ddl.pgcatalog.PgCatalogFunctions.granted';
CREATE ALIAS mtpg.has_schema_privilege FOR 'io.mtables.ddl.pgcatalog.PgCatalogFunctions.granted';
CREATE ALIAS mtpg.has_database_privilege FOR 'io.mtables.ddl.pgcatalog.PgCatalogFunctions.granted';

-- What never changes: the tablespace and the collation.
INSERT INTO mtpg.pg_tablespace VALUES (1663, 'pg_default', 10, NULL, NULL);
INSERT INTO mtpg.pg_collation VALUES (100, 'default', 11, 10, 'd', TRUE, -1, NULL, NULL, NULL, NULL);
-- What pg_get_indexdef() and pg_get_constraintdef() answer, by the index's or constraint's oid.
CREATE TABLE mtpg.mt_definitions (oid INTEGER PRIMARY KEY, definition VARCHAR);

-- The part of PostgreSQL's information_schema that tools list tables and columns with, as views
-- over the tables above in the schema mtis (PgCatalogSql renames information_schema.<view>).
CREATE SCHEMA mtis;
CREATE ALIAS mtpg.data_type_name FOR 'io.mtables.ddl.pgcatalog.PgCatalogFunctions.dataTypeName';
CREATE VIEW mtis.schemata AS
  SELECT mtpg.database_name() AS catalog_name, n.nspname AS schema_name, r.rolname AS schema_owner,
    CAST(NULL AS VARCHAR) AS default_character_set_catalog,
    CAST(NULL AS VARCHAR) AS default_character_set_schema,
    CAST(NULL AS VARCHAR) AS default_character_set_name, CAST(NULL AS VARCHAR) AS sql_path
  FROM mtpg.pg_namespace n LEFT JOIN mtpg.pg_roles r ON r.oid = n.nspowner;
CREATE VIEW mtis.tables AS
  SELECT mtpg.database_name() AS table_catalog, n.nspname AS table_schema, c.relname AS table_name,
    'BASE TABLE' AS table_type, CAST(NULL AS VARCHAR) AS self_referencing_column_name,
    CAST(NULL AS VARCHAR) AS reference_generation, CAST(NULL AS VARCHAR) AS user_defined_type_catalog,
    CAST(NULL AS VARCHAR) AS user_defined_type_schema, CAST(NULL AS VARCHAR) AS user_defined_type_name,
    'NO' AS is_insertable_into, 'NO' AS is_typed, CAST(NULL AS VARCHAR) AS commit_action
  FROM mtpg.pg_class c JOIN mtpg.pg_namespace n ON n.oid = c.relnamespace
  WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema');
CREATE VIEW mtis.columns AS
  SELECT mtpg.database_name() AS table_catalog, n.nspname AS table_schema, c.relname AS table_name,
    a.attname AS column_name, CAST(a.attnum AS INTEGER) AS ordinal_position,
    CAST(NULL AS VARCHAR) AS column_default, CASE WHEN a.attnotnull THEN 'NO' ELSE 'YES' END AS is_nullable,
    mtpg.data_type_name(a.atttypid) AS data_type,
    CASE WHEN a.atttypid = 1043 AND a.atttypmod >= 4 THEN a.atttypmod - 4 END AS character_maximum_length,
    CASE WHEN a.atttypid = 1043 AND a.atttypmod >= 4 THEN 4 * (a.atttypmod - 4) END AS character_octet_length,
    CASE a.atttypid WHEN 21 THEN 16 WHEN 23 THEN 32 WHEN 20 THEN 64 WHEN 700 THEN 24 WHEN 701 THEN 53
      WHEN 1700 THEN CASE WHEN a.atttypmod >= 4 THEN (a.atttypmod - 4) / 65536 END
    END AS numeric_precision,
    CASE WHEN a.atttypid IN (21, 23, 20, 1700) THEN 10 WHEN a.atttypid IN (700, 701) THEN 2 END
      AS numeric_precision_radix,
    CASE WHEN a.atttypid IN (21, 23, 20) THEN 0
      WHEN a.atttypid = 1700 AND a.atttypmod >= 4 THEN MOD(a.atttypmod - 4, 65536) END AS numeric_scale,
    CASE WHEN a.atttypid = 1082 THEN 0
      WHEN a.atttypid IN (1083, 1114, 1184) THEN CASE WHEN a.atttypmod >= 0 THEN a.atttypmod ELSE 6 END
    END AS datetime_precision,
    mtpg.database_name() AS udt_catalog, 'pg_catalog' AS udt_schema, t.typname AS udt_name,
    'NO' AS is_self_referencing, 'NO' AS is_identity, 'NEVER' AS is_generated,
    CAST(NULL AS VARCHAR) AS generation_expression, 'NO' AS is_updatable
  FROM mtpg.pg_attribute a JOIN mtpg.pg_class c ON c.oid = a.attrelid
    JOIN mtpg.pg_namespace n ON n.oid = c.relnamespace LEFT JOIN mtpg.pg_type t ON t.oid = a.atttypid
  WHERE c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
    AND n.nspname NOT IN ('pg_catalog', 'information_schema');
CREATE VIEW mtis.table_constraints AS
  SELECT mtpg.database_name() AS constraint_catalog, n.nspname AS constraint_schema,
    con.conname AS constraint_name, mtpg.database_name() AS table_catalog, n.nspname AS table_schema,
    c.relname AS table_name, 'PRIMARY KEY' AS constraint_type, 'NO' AS is_deferrable,
    'NO' AS initially_deferred, 'YES' AS enforced, CAST(NULL AS VARCHAR) AS nulls_distinct
  FROM mtpg.pg_constraint con JOIN mtpg.pg_class c ON c.oid = con.conrelid
    JOIN mtpg.pg_namespace n ON n.oid = c.relnamespace
  WHERE con.contype = 'p';
CREATE VIEW mtis.key_column_usage AS
  SELECT mtpg.database_name() AS constraint_catalog, n.nspname AS constraint_schema,
    con.conname AS constraint_name, mtpg.database_name() AS table_catalog, n.nspname AS table_schema,
    c.relname AS table_name, a.attname AS column_name,
    mtpg.key_position(con.conkey, a.attnum) AS ordinal_position,
    CAST(NULL AS INTEGER) AS position_in_unique_constraint
  FROM mtpg.pg_constraint con JOIN mtpg.pg_class c ON c.oid = con.conrelid
    JOIN mtpg.pg_namespace n ON n.oid = c.relnamespace
    JOIN mtpg.pg_attribute a ON a.attrelid = c.oid
  WHERE con.contype = 'p' AND mtpg.key_position(con.conkey, a.attnum) IS NOT NULL;
