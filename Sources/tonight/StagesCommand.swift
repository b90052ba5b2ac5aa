import ArgumentParser
import TonightPipeline

struct StagesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stages", abstract: "Show the stage graph: inputs, dependencies and tables.")

    func run() throws {
        print(StageGraph.standard.describe())
    }
}
