#!/usr/bin/env python3
"""Checks that the package's targets are the layers CONTRIBUTING.md documents.

The "Targets" table of CONTRIBUTING.md lists the targets from the bottom up. Each target may
depend on, and each of its files import, only targets listed above it in that table, and only
those its Package.swift entry names. The target graph in CONTRIBUTING.md is made from
Package.swift; `--update` writes it anew after a change to the targets.
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GUIDE = os.path.join(ROOT, "CONTRIBUTING.md")
GRAPH_START, GRAPH_END = "<!-- target graph: made by Tests/Layers/check-layers.py --update -->", "<!-- end of target graph -->"


def package_targets():
    """Our targets that are not tests, each with its path and the targets it depends on."""
    dump = json.loads(subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, check=True,
                                     capture_output=True, text=True).stdout)
    targets = {}
    for target in dump["targets"]:
        if target["type"] == "test":
            continue
        dependencies = []
        for dependency in target.get("dependencies", []):
            for kind in ("byName", "target"):
                if kind in dependency:
                    dependencies.append(dependency[kind][0])
        path = target.get("path") or os.path.join("Sources", target["name"])
        targets[target["name"]] = {"type": target["type"], "path": path, "dependencies": dependencies}
    return targets


def documented_order(guide):
    """The targets of the guide's "Targets" table, from the bottom up."""
    section = guide.split("\n## Targets\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `([^`]+)` \|", section, re.M)


def graph(targets, order):
    """A Mermaid graph of the targets, each pointing at the targets it depends on."""
    def node(name):
        return name if "-" not in name else f"{name.replace('-', '_')}[{name}]"

    lines = ["```mermaid", "graph BT"]
    for name in order:
        for dependency in targets[name]["dependencies"]:
            if dependency in targets:
                lines.append(f"    {node(name)} --> {node(dependency)}")
    lines.append("```")
    return "\n".join(lines)


def main():
    guide = open(GUIDE).read()
    targets = package_targets()
    order = documented_order(guide)
    problems = []
    ours = [name for name, target in targets.items() if target["type"] != "system"]
    for name in ours:
        if name not in order:
            problems.append(f"{name} is a target of Package.swift but not in CONTRIBUTING.md's Targets table")
    for name in order:
        if name not in targets:
            problems.append(f"{name} is in CONTRIBUTING.md's Targets table but not a target of Package.swift")
    rank = {name: index for index, name in enumerate(order)}
    for name in ours:
        if name not in rank:
            continue
        for dependency in targets[name]["dependencies"]:
            if dependency in rank and rank[dependency] >= rank[name]:
                problems.append(f"{name} depends on {dependency}, which is not below it in the Targets table")
        folder = os.path.join(ROOT, targets[name]["path"])
        for directory, _, files in os.walk(folder):
            for file in sorted(files):
                if not file.endswith(".swift"):
                    continue
                path = os.path.join(directory, file)
                for number, line in enumerate(open(path), 1):
                    match = re.match(r"^(?:@\w+\s+)*(?:public |package |internal )?import (\w+)", line)
                    if not match or match.group(1) not in targets:
                        continue
                    module = match.group(1)
                    if module not in targets[name]["dependencies"]:
                        problems.append(f"{os.path.relpath(path, ROOT)}:{number}: {name} imports {module}, "
                                        f"which its entry in Package.swift does not name")
                    elif module in rank and rank[module] >= rank[name]:
                        problems.append(f"{os.path.relpath(path, ROOT)}:{number}: {name} imports {module}, "
                                        f"which is not below it in the Targets table")
    drawn = graph(targets, [name for name in order if name in targets])
    start, end = guide.find(GRAPH_START), guide.find(GRAPH_END)
    if start < 0 or end < 0:
        problems.append(f"CONTRIBUTING.md has no target graph between '{GRAPH_START}' and '{GRAPH_END}'")
    elif guide[start + len(GRAPH_START):end].strip() != drawn:
        if sys.argv[1:] == ["--update"]:
            guide = guide[:start + len(GRAPH_START)] + "\n" + drawn + "\n" + guide[end:]
            open(GUIDE, "w").write(guide)
            print("CONTRIBUTING.md: target graph written anew")
        else:
            problems.append("CONTRIBUTING.md's target graph is not Package.swift's; "
                            "run Tests/Layers/check-layers.py --update and commit it")
    if problems:
        print("\n".join("error: " + problem for problem in problems))
        sys.exit(1)
    print(f"layers: {len(ours)} targets, each importing only targets below it")


main()
