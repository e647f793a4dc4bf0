#!/usr/bin/env python3
"""Runs every case of a real-world corpus (a folder laid out like the project's CI corpus) through
the `strata` command, the way a new user would, and checks that nothing is lost.

    Scripts/corpus.sh CORPUS [--strata PATH] [--postgres URL] [--only TEXT] [--keep]

Cases, found by the folder layout:
  databases/<name>/*.sqlite, *sqlite*.sql   a SQLite database (a .sql script is loaded into a new file)
  databases/<name>/*postgres*.sql           a PostgreSQL database, loaded into a new database of --postgres
      `strata import database` writes a model that lints; `strata migrate --baseline 1` adopts the
      untouched database; a version 2 that adds a field to every entity then migrates it with every
      row and value of every table equal before and after, views and triggers kept.
  coredata-models/<name>/*.xcdatamodeld     a Core Data model (expect.json, and guard when present)
      `strata import coredata` writes one lint-clean version per model version, in the bundle's
      order, whose latest mapping has every stored entity, attribute (inherited ones too, with its
      Strata type) and relationship (a reference, or a join entity; an abstract destination stands
      for its concrete subentities) of expect.json; or, when `guard` names a property, stops with an
      error located in a version's `contents` naming it, and writes nothing.
  coredata-stores/<collection>/**/*.sqlite  a store Core Data wrote, beside the model that wrote it
      `strata import coredata-store` recognises the store's version and moves every row of every
      entity (each entity's row count and attribute values equal) and of every join table.

Prints one line per case and ends with `N passed, M failed`. Cases listed in the expected-failures
file (default: Scripts/corpus-expected-failures.txt, one case name per line, `#` comments) may fail
without failing the run; one that passes while listed fails the run, so the list stays true.
Exit status: 0 when every case passed or failed as listed, 1 otherwise, 64 on a usage error.
"""

import argparse
import decimal
import glob
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class CaseFailed(Exception):
    """A case did not do what it must; the message says what."""


def run(args, expect=0, env=None, cwd=None):
    """Runs a command and returns its output; raises CaseFailed when its exit status is not `expect`."""
    result = subprocess.run(args, capture_output=True, text=True, env=env, cwd=cwd, timeout=900)
    output = (result.stdout + result.stderr).strip()
    if expect is not None and result.returncode != expect:
        shown = " ".join(os.path.basename(a) if i == 0 else a for i, a in enumerate(args))
        raise CaseFailed(f"`{shown}` exited {result.returncode}, expected {expect}:\n{indent(output)}")
    return result.returncode, output


def indent(text, limit=40):
    lines = text.splitlines()
    more = [f"... ({len(lines) - limit} more lines)"] if len(lines) > limit else []
    return "\n".join("      " + line for line in lines[:limit] + more)


# ---------------------------------------------------------------------------------------------
# Databases


def sqlite_rows(path):
    """Every table's rows (sorted, as text) and the views and triggers of a SQLite file."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    db.text_factory = bytes
    tables = {}
    names = [r[0].decode() for r in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        "AND name NOT LIKE 'strata_%'")]
    for name in names:
        columns = [r[1].decode() for r in db.execute(f'PRAGMA table_info("{name}")')]
        quoted = ", ".join('"' + c.replace('"', '""') + '"' for c in columns)
        rows = db.execute(f'SELECT {quoted} FROM "{name}"').fetchall()
        tables[name] = (columns, sorted(tuple(repr(v) for v in row) for row in rows))
    others = sorted((r[0].decode(), r[1].decode(), (r[2] or b"").decode()) for r in db.execute(
        "SELECT type, name, sql FROM sqlite_master WHERE type IN ('view', 'trigger')"))
    db.close()
    return tables, others


def psql(url, *args, expect=0):
    return run(["psql", url, "-X", "-v", "ON_ERROR_STOP=1", "-q", *args], expect=expect)


def postgres_rows(url):
    """Every table's rows (sorted, as text) and the views and triggers of a PostgreSQL database."""
    _, listing = psql(url, "-At", "-c",
                      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' "
                      "AND table_type = 'BASE TABLE' AND table_name NOT LIKE 'strata_%' ORDER BY 1")
    tables = {}
    for name in listing.splitlines():
        _, columns = psql(url, "-At", "-c",
                          f"SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' "
                          f"AND table_name = '{name}' ORDER BY ordinal_position")
        columns = columns.splitlines()
        quoted = ", ".join('"' + c + '"::text' for c in columns)
        _, rows = psql(url, "-At", "-F", "\x1f", "-R", "\x1e", "-c", f'SELECT {quoted} FROM "{name}"')
        tables[name] = (columns, sorted(rows.split("\x1e")) if rows else [])
    _, others = psql(url, "-At", "-c",
                     "SELECT 'view', table_name, view_definition FROM information_schema.views "
                     "WHERE table_schema = 'public' UNION ALL SELECT 'trigger', trigger_name, action_statement "
                     "FROM information_schema.triggers WHERE trigger_schema = 'public' ORDER BY 1, 2")
    return tables, others.splitlines()


def drop_column(tables, added):
    """`tables` without the columns a version added."""
    result = {}
    for name, (columns, rows) in tables.items():
        keep = [i for i, c in enumerate(columns) if (name, c) not in added]
        if isinstance(rows, list) and rows and isinstance(rows[0], str):
            split = [r.split("\x1f") for r in rows]
            rows = sorted("\x1f".join(r[i] for i in keep) for r in split)
        else:
            rows = sorted(tuple(r[i] for i in keep) for r in rows)
        result[name] = ([columns[i] for i in keep], rows)
    return result


def add_field_version(schemas, model):
    """Writes v2.yaml: v1 plus an optional field `strataCorpusNote: String?` in every entity.
    Returns the (table, column) pairs it adds."""
    v1 = os.path.join(schemas, model, "v1.yaml")
    with open(v1) as f:
        text = f.read()
    lines = text.splitlines()
    out, added, entity, table = [], [], None, None
    for line in lines:
        if line.startswith("version:"):
            line = "version: 2"
        out.append(line)
        match = re.match(r"^  (\S[^:]*):\s*$", line)
        if match:
            entity, table = match.group(1).strip('"'), None
        table_match = re.match(r"^    table:\s*(.+)$", line)
        if table_match:
            table = json.loads(table_match.group(1)) if table_match.group(1).startswith('"') else table_match.group(1)
        if line == "    fields:" and entity is not None:
            out.append("      strataCorpusNote: { type: String?, column: strata_corpus_note }")
            added.append((entity, table))
    with open(os.path.join(schemas, model, "v2.yaml"), "w") as f:
        f.write("\n".join(out) + "\n")
    return added


def snake(name):
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def database_case(ctx, name, source, dialect):
    work = ctx.workdir(name)
    schemas = os.path.join(work, "Schemas")
    model = "Corpus"
    if dialect == "sqlite":
        database = os.path.join(work, "database.sqlite")
        if source.endswith(".sql"):
            with open(source, "rb") as f:
                subprocess.run(["sqlite3", database], input=f.read(), check=True, capture_output=True)
        else:
            shutil.copyfile(source, database)
        target = ["--sqlite", database]
        migrate_target = ["--database", database]
        read = lambda: sqlite_rows(database)
    else:
        if not ctx.postgres:
            raise CaseFailed("needs a PostgreSQL server: pass --postgres URL")
        db_name = "corpus_" + re.sub(r"[^a-z0-9]+", "_", name.lower())
        psql(ctx.postgres, "-c", f"DROP DATABASE IF EXISTS {db_name}")
        psql(ctx.postgres, "-c", f"CREATE DATABASE {db_name}")
        database = re.sub(r"/[^/?]*(\?|$)", f"/{db_name}\\1", ctx.postgres, count=1) \
            if ctx.postgres.count("/") >= 3 else ctx.postgres + "/" + db_name
        psql(database, "-f", source)
        target = ["--postgres", database]
        migrate_target = ["--postgres", database]
        read = lambda: postgres_rows(database)

    before = read()
    run([ctx.strata, "import", "database", *target, "--model", model, "--schemas", schemas])
    run([ctx.strata, "lint", "--schemas", schemas])
    run([ctx.strata, "migrate", *migrate_target, "--schemas", schemas, "--model", model, "--baseline", "1",
         "--to", "1"])
    if read() != before:
        raise CaseFailed("--baseline 1 changed the database's rows, views or triggers")
    added_entities = add_field_version(schemas, model)
    run([ctx.strata, "lint", "--schemas", schemas])
    run([ctx.strata, "migrate", *migrate_target, "--schemas", schemas, "--model", model])
    after_tables, after_others = read()
    added = set()
    for table, (columns, _) in after_tables.items():
        if "strata_corpus_note" in columns:
            added.add((table, "strata_corpus_note"))
    if len(added) != len(added_entities):
        raise CaseFailed(f"v2 added the new column to {len(added)} tables, expected {len(added_entities)}")
    before_tables, before_others = before
    if drop_column(after_tables, added) != drop_column(before_tables, set()):
        differing = [t for t in before_tables
                     if drop_column(after_tables, added).get(t) != drop_column(before_tables, set()).get(t)]
        raise CaseFailed(f"migrating to v2 changed the rows of: {', '.join(sorted(differing))}")
    if after_others != before_others:
        lost = sorted(set(map(str, before_others)) - set(map(str, after_others)))
        raise CaseFailed(f"migrating to v2 lost or changed views or triggers: {'; '.join(lost)[:400]}")
    return f"{sum(len(rows) for _, rows in before_tables.values())} rows in {len(before_tables)} tables kept"


# ---------------------------------------------------------------------------------------------
# Core Data models


STRATA_TYPES = {
    "Integer 16": "Int16", "Integer 32": "Int32", "Integer 64": "Int64", "Double": "Double", "Float": "Float",
    "Decimal": "Decimal", "String": "String", "Boolean": "Bool", "Date": "Date", "Binary": "Data", "UUID": "UUID",
    "URI": "String", "Transformable": "Data",
}


def inverse_names(bundle, version):
    """Each relationship's inverse in the `contents` XML of one version: {(entity, relationship): inverse}."""
    import xml.etree.ElementTree as ElementTree
    root = ElementTree.parse(os.path.join(bundle, version, "contents")).getroot()
    return {(entity.get("name"), relationship.get("name")): relationship.get("inverseName")
            for entity in root.iter("entity") for relationship in entity.iter("relationship")}


def missing_from_mapping(expect, latest, inverses):
    """What of expect.json's current version the latest mapping version lacks: every stored
    attribute (inherited ones included) of every concrete entity, with the Strata type of its
    Core Data type; every stored to-one relationship as a reference (for a one-to-one, on one of
    the two sides); every to-many relationship as a join entity or the destination's reference.
    An abstract destination stands for its concrete subentities."""
    entities = expect["entities"]

    def chain(name):
        result, seen = [], set()
        while name in entities and name not in seen:
            seen.add(name)
            result.append(name)
            name = entities[name].get("parent")
        return result

    def concrete(name):
        return [e for e in entities if not entities[e].get("abstract") and name in chain(e)]

    def fields(entity):
        return [f for e in latest["entities"] if e.get("coreDataEntity") == entity for f in e["fields"]]

    def has_reference(entity, prop, destination):
        return any(f["source"] == "toOne" and f.get("property") == prop and f.get("type") in (destination, None)
                   for f in fields(entity))

    def has_join(entity, relationship, destination, inverse):
        for e in latest["entities"]:
            join = e.get("join")
            if not join:
                continue
            if (join["entity"], join["relationship"], join["destination"]) == (entity, relationship, destination):
                return True
            if inverse and (join["entity"], join.get("inverse"), join["destination"]) == (destination, relationship,
                                                                                             entity):
                return True
            if inverse and (join["entity"], join["relationship"], join["destination"]) == (destination, inverse,
                                                                                          entity):
                return True
        return False

    missing = []
    for entity in entities:
        if entities[entity].get("abstract"):
            continue
        mapped = fields(entity)
        if not mapped and not any(e.get("coreDataEntity") == entity for e in latest["entities"]):
            missing.append(entity)
            continue
        types = {f.get("property"): f.get("type") for f in mapped if f["source"] == "attribute"}
        for declaring in chain(entity):
            spec = entities[declaring]
            for attribute, info in spec.get("attributes", {}).items():
                if info.get("transient"):
                    continue
                if attribute not in types:
                    missing.append(f"{entity}.{attribute}")
                elif types[attribute] and types[attribute] != STRATA_TYPES.get(info.get("type")):
                    missing.append(f"{entity}.{attribute} as {STRATA_TYPES.get(info.get('type'))} "
                                   f"(mapped as {types[attribute]})")
            for relationship, info in spec.get("toOne", {}).items():
                inverse = inverses.get((declaring, relationship))
                for destination in concrete(info["destination"]):
                    if has_reference(entity, relationship, destination):
                        continue
                    # A one-to-one stored once: the destination's reference back.
                    inverse_info = next((entities[d]["toOne"][inverse] for d in chain(destination)
                                         if inverse and inverse in entities[d].get("toOne", {})), None)
                    if inverse_info and has_reference(destination, inverse, entity):
                        continue
                    missing.append(f"{entity}.{relationship} (to {destination})")
            for relationship, info in spec.get("toMany", {}).items():
                inverse = info.get("inverse") or inverses.get((declaring, relationship))
                for destination in concrete(info["destination"]):
                    if has_join(entity, relationship, destination, inverse):
                        continue
                    if inverse and has_reference(destination, inverse, entity):
                        continue
                    missing.append(f"{entity}.{relationship} (to {destination})")
    return missing


def coredata_model_case(ctx, name, bundle, folder):
    work = ctx.workdir(name)
    schemas = os.path.join(work, "Schemas")
    with open(os.path.join(folder, "expect.json")) as f:
        expect = json.load(f)
    guard_path = os.path.join(folder, "guard")
    guard = open(guard_path).read().split() if os.path.exists(guard_path) else None
    # Transformable attributes are imported as their archived bytes, as an app adopting Strata
    # that keeps them would import them.
    status, output = run([ctx.strata, "import", "coredata", bundle, "--model", "Corpus", "--schemas", schemas,
                          "--transformable-as-data"], expect=None)
    if guard:
        # The error is located in a version's `contents` and names the property ('Entity.property').
        errors = re.findall(r"^.+/contents:\d+:\d+: error: .*", output, re.M)
        naming = [e for e in errors if all(re.search(r"[.']" + re.escape(word) + r"'", e) for word in guard)]
        if status == 0:
            raise CaseFailed(f"the import went through; `guard` says it must stop at {'.'.join(guard)}")
        if not naming:
            raise CaseFailed(f"the import stopped without a located error naming {'.'.join(guard)}:\n{indent(output)}")
        if os.path.exists(schemas) and os.listdir(schemas):
            raise CaseFailed("the import stopped but wrote files: " + ", ".join(os.listdir(schemas)))
        return f"stopped as expected at {'.'.join(guard)}: {naming[0][:160]}"
    if status != 0:
        raise CaseFailed(f"`strata import coredata` exited {status}:\n{indent(output)}")
    run([ctx.strata, "lint", "--schemas", schemas])
    versions = sorted(glob.glob(os.path.join(schemas, "Corpus", "v*.yaml")),
                      key=lambda p: int(re.sub(r"\D", "", os.path.basename(p))))
    if len(versions) != len(expect["versions"]):
        raise CaseFailed(f"wrote {len(versions)} versions, the bundle has {len(expect['versions'])}")
    with open(os.path.join(schemas, "Corpus", "coredata-mapping.json")) as f:
        mapping = json.load(f)
    order = [v["coreDataVersion"] for v in mapping["versions"]]
    expected_order = [re.sub(r"\.xcdatamodel$", "", v) for v in expect["versions"]]
    if order != expected_order:
        raise CaseFailed(f"versions in the order {order}, expected {expected_order}")
    latest = mapping["versions"][-1]
    missing = missing_from_mapping(expect, latest, inverse_names(bundle, expect["current"]))
    if missing:
        raise CaseFailed("the latest version lacks: " + ", ".join(missing))
    return f"{len(versions)} versions, {len(expect['entities'])} entities"


# ---------------------------------------------------------------------------------------------
# Core Data stores


def store_entities(path):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    names = {row[0]: row[1] for row in db.execute("SELECT Z_NAME, Z_ENT FROM Z_PRIMARYKEY")}
    db.close()
    return names


def model_entity_sets(bundle):
    """The entity names of each version of a .xcdatamodeld bundle."""
    sets = []
    for contents in sorted(glob.glob(os.path.join(bundle, "*.xcdatamodel", "contents"))):
        with open(contents, encoding="utf-8", errors="replace") as f:
            sets.append(set(re.findall(r'<entity name="([^"]+)"', f.read())))
    return sets


def coredata_store_case(ctx, name, store, collection):
    # Only copies are opened: SQLite opening a WAL store, even read-only, writes its -shm file.
    work = ctx.workdir(name)
    schemas = os.path.join(work, "Schemas")
    copy = os.path.join(work, "store", os.path.basename(store))
    os.makedirs(os.path.dirname(copy))
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(store + suffix):
            shutil.copyfile(store + suffix, copy + suffix)
    models = glob.glob(os.path.join(collection, "**", "*.xcdatamodeld"), recursive=True)
    entities = store_entities(copy)
    fitting = [m for m in models if any(s == set(entities) for s in model_entity_sets(m))]
    if len(fitting) != 1:
        raise CaseFailed(f"cannot tell which model wrote the store: {len(fitting)} models have its entities")
    # A store holds what its version wrote; a required to-one that a later version adds (wibosco's
    # v3 Post.color, which the app filled with a mapping model) is accepted, its reference optional.
    run([ctx.strata, "import", "coredata", fitting[0], "--model", "Corpus", "--schemas", schemas,
         "--transformable-as-data", "--allow-new-required-to-one"])
    database = os.path.join(work, "imported.sqlite")
    status, output = run([ctx.strata, "import", "coredata-store", "--store", copy, "--schemas", schemas,
                          "--model", "Corpus", "--database", database], expect=None)
    if status != 0:
        raise CaseFailed(f"`strata import coredata-store` exited {status}:\n{indent(output)}")
    with open(os.path.join(schemas, "Corpus", "coredata-mapping.json")) as f:
        mapping = json.load(f)
    compared = compare_store(copy, database, mapping["versions"][-1], entities)
    return f"{output.splitlines()[-1][:120] if output else ''}; {compared}"


def comparable(value):
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        try:
            return decimal.Decimal(value).normalize() if re.fullmatch(r"-?\d+(\.\d+)?", value) else value
        except decimal.InvalidOperation:
            return value
    return value


def compare_store(store, database, version, entities):
    """Each entity's rows and attribute values in the store against the imported database."""
    source = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    target = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    checked_rows = 0
    problems = []
    for entity in version["entities"]:
        table = entity.get("table")
        if entity.get("join") or not entity.get("coreDataEntity") or not table:
            continue
        ent = entities.get(entity["coreDataEntity"])
        root = "Z" + (entity.get("coreDataRoot") or entity["coreDataEntity"]).upper()
        if ent is None:
            continue
        count_source = source.execute(f'SELECT count(*) FROM "{root}" WHERE Z_ENT = ?', (ent,)).fetchone()[0]
        count_target = target.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
        if count_source != count_target:
            problems.append(f"{entity['entity']}: {count_target} rows, the store has {count_source}")
            continue
        key = next((f for f in entity["fields"] if f["source"] == "primaryKey"), None)
        store_columns = {r[1].upper() for r in source.execute(f'PRAGMA table_info("{root}")')}
        for field in entity["fields"]:
            if field["source"] != "attribute" or not key or not field.get("column"):
                continue
            column = "Z" + field["property"].upper()
            if column not in store_columns:
                continue
            left = sorted(((pk, comparable(v)) for pk, v in source.execute(
                f'SELECT Z_PK, "{column}" FROM "{root}" WHERE Z_ENT = ?', (ent,))), key=repr)
            right = sorted(((pk, comparable(v)) for pk, v in target.execute(
                f'SELECT "{key["column"]}", "{field["column"]}" FROM "{table}"')), key=repr)
            if left != right:
                differing = sum(1 for a, b in zip(left, right) if a != b)
                problems.append(f"{entity['entity']}.{field['field']}: {differing} values differ")
        checked_rows += count_source
    join_rows_store = 0
    for (table,) in source.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'Z_[0-9]*'"):
        join_rows_store += source.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
    join_rows_target = 0
    for entity in version["entities"]:
        if entity.get("join") and entity.get("table"):
            join_rows_target += target.execute(f'SELECT count(*) FROM "{entity["table"]}"').fetchone()[0]
    if join_rows_store != join_rows_target:
        problems.append(f"join tables: {join_rows_target} pairs, the store has {join_rows_store}")
    source.close()
    target.close()
    if problems:
        raise CaseFailed("; ".join(problems))
    return f"{checked_rows} rows and {join_rows_store} pairs equal"


# ---------------------------------------------------------------------------------------------


class Context:
    def __init__(self, strata, postgres, keep):
        self.strata = strata
        self.postgres = postgres
        self.root = tempfile.mkdtemp(prefix="strata-corpus-")
        self.keep = keep

    def workdir(self, name):
        path = os.path.join(self.root, re.sub(r"[^A-Za-z0-9._-]+", "_", name))
        os.makedirs(path)
        return path


def cases(corpus):
    found = []
    for folder in sorted(glob.glob(os.path.join(corpus, "databases", "*"))):
        base = os.path.basename(folder)
        for path in sorted(glob.glob(os.path.join(folder, "*"))):
            file = os.path.basename(path)
            if file.endswith(".sqlite"):
                found.append((f"databases/{base}/{file}", database_case, (path, "sqlite")))
            elif file.endswith(".sql") and "sqlite" in file:
                found.append((f"databases/{base}/{file}", database_case, (path, "sqlite")))
            elif file.endswith(".sql") and "postgres" in file:
                found.append((f"databases/{base}/{file}", database_case, (path, "postgres")))
    for folder in sorted(glob.glob(os.path.join(corpus, "coredata-models", "*"))):
        for bundle in sorted(glob.glob(os.path.join(folder, "*.xcdatamodeld"))):
            found.append((f"coredata-models/{os.path.basename(folder)}", coredata_model_case, (bundle, folder)))
    for collection in sorted(glob.glob(os.path.join(corpus, "coredata-stores", "*"))):
        if not os.path.isdir(collection):
            continue
        for store in sorted(glob.glob(os.path.join(collection, "**", "*.sqlite"), recursive=True)):
            if "/_inspect/" in store:
                continue
            relative = os.path.relpath(store, os.path.join(corpus, "coredata-stores"))
            found.append((f"coredata-stores/{relative}", coredata_store_case, (store, collection)))
    return found


def main():
    parser = argparse.ArgumentParser(
        description="Run every case of a real-world corpus through strata.",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("corpus", help="the corpus folder (databases/, coredata-models/, coredata-stores/)")
    parser.add_argument("--strata", help="the strata executable (default: build it with swift build)")
    parser.add_argument("--postgres", default=os.environ.get("STRATA_POSTGRES_URL"),
                        help="a PostgreSQL server URL; a new database is made per case (also STRATA_POSTGRES_URL)")
    parser.add_argument("--expected-failures", default=os.path.join(ROOT, "Scripts", "corpus-expected-failures.txt"))
    parser.add_argument("--only", help="run only the cases whose name contains this text")
    parser.add_argument("--keep", action="store_true", help="keep the work folder (its path is printed)")
    parser.add_argument("--verbose", action="store_true", help="print why each expected failure failed")
    args = parser.parse_args()
    if not os.path.isdir(args.corpus):
        print(f"corpus: {args.corpus}: no such folder", file=sys.stderr)
        return 64
    strata = args.strata
    if not strata:
        subprocess.run(["swift", "build", "--product", "strata"], cwd=ROOT, check=True)
        binpath = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True,
                                 capture_output=True, text=True).stdout.strip()
        strata = os.path.join(binpath, "strata")
    strata = os.path.abspath(strata)
    expected = set()
    if os.path.exists(args.expected_failures):
        with open(args.expected_failures) as f:
            expected = {line.split("#")[0].strip() for line in f if line.split("#")[0].strip()}
    ctx = Context(strata, args.postgres, args.keep)
    passed, failed, unexpected = 0, 0, []
    try:
        for name, function, parameters in cases(args.corpus):
            if args.only and args.only not in name:
                continue
            try:
                detail = function(ctx, name, *parameters)
                if name in expected:
                    unexpected.append(name)
                    print(f"PASS (listed as an expected failure) {name}: {detail}")
                else:
                    print(f"pass  {name}: {detail}")
                passed += 1
            except CaseFailed as error:
                failed += 1
                if name in expected:
                    print(f"xfail {name}" + (f": {error}" if args.verbose else ": " + str(error).splitlines()[0][:150]))
                else:
                    unexpected.append(name)
                    print(f"FAIL  {name}: {error}")
            except Exception:
                failed += 1
                unexpected.append(name)
                print(f"FAIL  {name}: the runner failed:\n{indent(traceback.format_exc())}")
            sys.stdout.flush()
    finally:
        if args.keep:
            print(f"work folder: {ctx.root}")
        else:
            shutil.rmtree(ctx.root, ignore_errors=True)
    listed = sum(1 for n in unexpected if n in expected)
    print(f"\n{passed} passed, {failed} failed ({failed - (len(unexpected) - listed)} of them listed as expected)")
    if unexpected:
        print("not as expected: " + ", ".join(unexpected))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
