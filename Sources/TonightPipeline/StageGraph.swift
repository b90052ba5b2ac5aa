import TonightCore

/// The fixed graph of stages, in topological order.
package struct StageGraph: Sendable {
    package let stages: [any Stage]

    /// The stages this build implements.
    package static let standard = StageGraph(stages: [
        ParseFeedStage(), ParseAffinityStage(), GeocodeStage(), LoadTicketsStage(), LoadPlaymateStage(),
        CatalogStage(), PlannerStage(), TicketsStage(), AlertsStage(), PlaymateStage(), PublishStage(),
    ])

    package init(stages: [any Stage]) {
        self.stages = stages
    }

    package func stage(_ name: String) throws -> any Stage {
        guard let s = stages.first(where: { $0.name == name }) else {
            throw TonightError(
                .usage, "unknown stage '\(name)'", hint: "stages: \(stages.map(\.name).joined(separator: ", "))")
        }
        return s
    }

    /// `name` and every stage downstream of it.
    package func downstream(of name: String) -> Set<String> {
        var result: Set<String> = [name]
        for s in stages where s.upstreamStages.contains(where: result.contains) { result.insert(s.name) }
        return result
    }

    /// The graph as text for `tonight stages`.
    package func describe() -> String {
        var lines: [String] = []
        for s in stages {
            let ups = s.upstreamStages
            let files = s.inputs.compactMap { input -> String? in
                switch input {
                case .file(_, let c, let optional): return c.joined(separator: "|") + (optional ? " (optional)" : "")
                case .directory(_, let p): return p + "/*.csv"
                case .stage: return nil
                case .previousNight: return "the previous night's snapshot (the newest published with an earlier run date)"
                case .timeZoneDatabase: return "the system's IANA time zone database (TZDIR or /usr/share/zoneinfo)"
                }
            }
            lines.append("\(s.name)")
            lines.append("    \(s.summary)")
            if !files.isEmpty { lines.append("    reads:  \(files.joined(separator: ", "))") }
            if !ups.isEmpty { lines.append("    after:  \(ups.joined(separator: ", "))") }
            lines.append("    tables: \(s.tables.joined(separator: ", "))")
        }
        return lines.joined(separator: "\n")
    }
}
