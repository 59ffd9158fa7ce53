#!/usr/bin/env python3
"""The drives a host may burn in, as a JSON list of device paths on stdout.

Every whole disk that rotates and that nothing uses: neither it nor any of
its partitions is mounted, holds swap, a file system's signature of a RAID or
LVM member, or the root file system; narrowed to the serials or models given
(comma-separated).  Reads lsblk's JSON; prints [] where there is none.
"""
import argparse
import json
import subprocess
import sys

IN_USE = {"swap", "linux_raid_member", "LVM2_member", "zfs_member", "crypto_LUKS"}


def used(node):
    """True when node or anything under it is mounted or a member of something."""
    points = node.get("mountpoints") or [node.get("mountpoint")]
    if any(p for p in points if p):
        return True
    if node.get("fstype") in IN_USE:
        return True
    return any(used(c) for c in node.get("children") or [])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--serials", default="")
    ap.add_argument("--models", default="")
    ap.add_argument("--lsblk", help="lsblk's JSON from this file instead of running lsblk")
    a = ap.parse_args()
    serials = {s for s in a.serials.split(",") if s}
    models = {m for m in a.models.split(",") if m}
    if a.lsblk:
        with open(a.lsblk, encoding="utf-8") as f:
            out = f.read()
    else:
        out = subprocess.run(["lsblk", "-J", "-o", "NAME,PATH,TYPE,ROTA,SERIAL,MODEL,FSTYPE,MOUNTPOINT"],
                             check=True, capture_output=True, text=True).stdout
    chosen = []
    for d in json.loads(out).get("blockdevices", []):
        rota = d.get("rota")
        if d.get("type") != "disk" or rota not in (True, "1", 1) or used(d):
            continue
        serial = (d.get("serial") or "").strip()
        model = (d.get("model") or "").strip()
        if serials and serial not in serials:
            continue
        if models and model not in models:
            continue
        chosen.append(d.get("path") or "/dev/" + d["name"])
    json.dump(chosen, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
