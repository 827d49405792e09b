#!/usr/bin/env python3
"""Move each UI string to the strings directory of the code that uses it (issue 26).

    .venv/bin/python scripts/move_strings.py [<repo root>] [--dry-run] [--keep tutor|pages]

A string that only the page layer (app_pages/, streamlit_app.py) names goes to
`app_pages/strings/<lang>/<namespace>.json`; one that the core packages (tutor, grader, quizbank,
compute) name goes to (or stays in) `tutor/locales/<lang>/<namespace>.json`. Who names a key is
decided by the repository's own `tests/app/string_users.py` (the module the test of string homes
uses), so this script and that test cannot disagree. A key no code names stays where it is (listed).

Idempotent: on a tree where every key is at home it writes nothing. Run it again after merging a
branch that added keys to the old files (they move too), or that moved code between layers (its
keys follow it, in either direction).

A key defined in both directories (a merge can leave one: a branch edited the old copy) is kept
once: when both copies say the same, the one at home stays; when they differ, nothing is written
and the script lists them, unless `--keep tutor` or `--keep pages` says whose text wins.

Files keep their layout (nested objects, 2-space indent, UTF-8, key order): a moved key goes next
to the key it followed in its old file when that key is in the new file too. A file left empty is
deleted. Only the standard library is used; nothing of the project is imported but the
string_users module, which imports nothing of the project either.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path

LANGUAGES = ("zh", "en")


def load_string_users(root: Path):
    path = root / "tests" / "app" / "string_users.py"
    if not path.is_file():
        sys.exit(f"{path} is missing: this script needs the repository's key-user walker")
    spec = importlib.util.spec_from_file_location("string_users", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["string_users"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def read_tree(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def render(tree: dict) -> str:
    return json.dumps(tree, ensure_ascii=False, indent=2) + "\n"


def leaves(tree: dict, prefix: tuple = ()):
    """(path, text) for every string in a nested tree, in file order."""
    for name, child in tree.items():
        if isinstance(child, dict):
            yield from leaves(child, (*prefix, name))
        else:
            yield (*prefix, name), child


def remove(tree: dict, path: tuple) -> None:
    """Delete the leaf at `path` and every group it leaves empty."""
    parent = tree
    trail = []
    for name in path[:-1]:
        trail.append((parent, name))
        parent = parent[name]
    del parent[path[-1]]
    for holder, name in reversed(trail):
        if holder[name]:
            break
        del holder[name]


def insert(tree: dict, path: tuple, text: str, source: dict) -> None:
    """Put the leaf at `path` into `tree`, each level next to its neighbours in `source` (the file
    it comes from, as it was read): after the nearest earlier sibling that `tree` has, else before
    the nearest later one, else last."""
    here, there = tree, source
    for depth, name in enumerate(path):
        last = depth == len(path) - 1
        if name not in here:
            _place(here, name, text if last else {}, list(there))
        elif last:
            here[name] = text
        here, there = here[name], there[name] if not last else None


def _place(holder: dict, name: str, value, source_order: list[str]) -> None:
    at = source_order.index(name)
    before = [n for n in reversed(source_order[:at]) if n in holder]
    after = [n for n in source_order[at + 1:] if n in holder]
    items = list(holder.items())
    if before:
        position = [k for k, _ in items].index(before[0]) + 1
    elif after:
        position = [k for k, _ in items].index(after[0])
    else:
        position = len(items)
    items.insert(position, (name, value))
    holder.clear()
    holder.update(items)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path, nargs="?", default=Path(__file__).resolve().parents[1],
                        help="the repository (default: this script's)")
    parser.add_argument("--dry-run", action="store_true", help="say what would move, write nothing")
    parser.add_argument("--keep", choices=("tutor", "pages"),
                        help="for a key defined differently in both places: whose text to keep")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    users = load_string_users(root)
    dirs = {layer: root / home for layer, home in users.HOMES.items()}  # core, pages
    if not (root / "tutor" / "i18n.py").is_file():
        sys.exit(f"{root} has no tutor/i18n.py: is it the repository's root?")

    namespaces = sorted({p.stem for d in dirs.values() for lang in LANGUAGES
                         for p in (d / lang).glob("*.json")})
    uses = users.key_uses(root, namespaces)
    trees = {(layer, lang, ns): read_tree(dirs[layer] / lang / f"{ns}.json")
             for layer in dirs for lang in LANGUAGES for ns in namespaces}
    originals = {where: render(tree) for where, tree in trees.items()}
    keep_layer = {"tutor": "core", "pages": "pages"}.get(args.keep)

    moved, dropped, conflicts, unused = [], [], [], set()
    homes: dict[str, str | None] = {}

    def home_of(key: str) -> str | None:
        if key not in homes:
            homes[key] = users.home(key, uses)
        return homes[key]

    for lang in LANGUAGES:
        for ns in namespaces:
            tree = {layer: trees[(layer, lang, ns)] for layer in dirs}
            # A key in both places (a merge can leave one): keep one copy.
            core_texts, page_texts = dict(leaves(tree["core"])), dict(leaves(tree["pages"]))
            for path in [p for p in core_texts if p in page_texts]:
                key = ".".join((ns, *path))
                if core_texts[path] == page_texts[path]:
                    winner = home_of(key) or "core"
                elif keep_layer is not None:
                    winner = keep_layer
                else:
                    conflicts.append((lang, key, core_texts[path], page_texts[path]))
                    continue
                remove(tree["pages" if winner == "core" else "core"], path)
                dropped.append(f"{lang} {key}: kept the text in {dirs[winner].relative_to(root)}")
            # Every key to the home of the code that names it.
            for layer in dirs:
                for path, text in list(leaves(tree[layer])):
                    key = ".".join((ns, *path))
                    home = home_of(key)
                    if home is None:
                        unused.add(key)
                    if home is None or home == layer or path in dict(leaves(tree[home])):
                        continue  # at home, no home, or a conflict (reported)
                    remove(tree[layer], path)
                    insert(tree[home], path, text, json.loads(originals[(layer, lang, ns)]))
                    moved.append((lang, key, layer, home))

    if conflicts:
        for lang, key, core_text, page_text in conflicts:
            print(f"CONFLICT {lang} {key}:\n  {dirs['core'].relative_to(root)}: {core_text!r}\n"
                  f"  {dirs['pages'].relative_to(root)}: {page_text!r}", file=sys.stderr)
        print("nothing written: choose a text with --keep tutor or --keep pages, or edit one copy "
              "away", file=sys.stderr)
        return 1

    for (layer, lang, ns), tree in sorted(trees.items()):
        path = dirs[layer] / lang / f"{ns}.json"
        text = render(tree)
        if text == originals[(layer, lang, ns)]:
            continue
        verb = "delete" if not tree else "write"
        print(f"{verb} {path.relative_to(root)}")
        if args.dry_run:
            continue
        if not tree:
            path.unlink()
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")

    by_direction: dict[tuple, int] = {}
    for _, _, src, dst in moved:
        by_direction[(src, dst)] = by_direction.get((src, dst), 0) + 1
    for (src, dst), count in sorted(by_direction.items()):
        print(f"moved {count} strings from {dirs[src].relative_to(root)} "
              f"to {dirs[dst].relative_to(root)}")
    for line in dropped:
        print(f"defined twice, {line}")
    if unused:
        print(f"no code names these {len(unused)} keys (left where they are): "
              + ", ".join(sorted(unused)))
    if not moved and not dropped:
        print("every string is at home: nothing to move")
    return 0


if __name__ == "__main__":
    sys.exit(main())
