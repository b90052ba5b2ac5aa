/// The affinity text file in the real format (affinity.md): blocks per source artist name,
/// `ID,Name,Score` lines with strictly descending scores, `-----` terminators.
struct AffinityGenerator {
    let scale: GeneratorScale
    let feed: GeneratedFeed
    var rng: SplitMix64
    var shape: GeneratorShape = .realistic

    mutating func render(faults: Bool, file: String) -> (ByteBuffer, [PlantedFault]) {
        var b = ByteBuffer(capacity: scale.affinityBlocks * scale.affinityPerBlock * 48 + 1024)
        var planted: [PlantedFault] = []
        var line = 1
        let artists = feed.artists
        let n = artists.count
        // Realistic: recommended artists are mostly popular ones (Zipf over popularity ranks).
        let targets = shape == .realistic && scale.name != "tiny" ? WeightedSampler.zipf(n, exponent: 1, offset: 20) : nil
        for block in 0..<scale.affinityBlocks {
            let source = artists[feed.popularity[block % n]]
            // ~3 % of source names match no artist of the feed.
            let name = rng.chance(0.03) ? source.name + " (Tribute Act)" : source.name
            b.add("Recommended artists for ")
            b.add(name)
            b.add("\n")
            line += 1
            var score = 0.05 + rng.unit() * 0.1
            var used = Set<Int64>()
            for k in 0..<scale.affinityPerBlock {
                var target = artists[feed.popularity[targets?.draw(&rng) ?? rng.skewed(min(n, max(10, n / 4)), k: 1.6)]]
                if target.id == source.id || used.contains(target.id) { target = artists[(block + k * 7 + 1) % n] }
                if target.id == source.id || used.contains(target.id) { continue }
                used.insert(target.id)
                let unknown = scale.name != "tiny" && rng.chance(0.01)
                b.add(String(unknown ? 90_000_000 + Int64(rng.int(0...999_999)) : target.id))
                b.add(",")
                b.add(target.name)
                b.add(",")
                b.add(String(score))
                b.add("\n")
                line += 1
                score *= 0.75 + rng.unit() * 0.2
            }
            if faults && block == scale.affinityBlocks / 2 {
                b.add("\(source.id),\(source.name),1.7\n")
                planted.append(PlantedFault(file: file, line: line, reason: "bad-score"))
                line += 1
                b.add("not-an-id,\(source.name)\n")
                planted.append(PlantedFault(file: file, line: line, reason: "bad-line"))
                line += 1
            }
            b.add("-----\n")
            line += 1
        }
        return (b, planted)
    }
}
