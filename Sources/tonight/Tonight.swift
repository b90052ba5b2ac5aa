import ArgumentParser
import Foundation
import TonightBase
import TonightCore
import TonightPipeline
import TonightSnapshot

/// The `tonight` command line.
@main
struct Tonight: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tonight",
        abstract: "The nightly batch job of Tickets Tonight and Playmate.",
        discussion: """
            With no arguments, `tonight run` runs the whole job on the bundled fixtures into ./.tonight/.
            Exit codes: 0 success, 1 internal failure, 2 usage, 65 invalid input data, 74 I/O error, \
            75 work directory locked by another run.
            """,
        subcommands: [RunCommand.self, MergeCommand.self, StagesCommand.self, RunsCommand.self, SnapshotCommand.self, GenerateCommand.self],
        defaultSubcommand: nil)

    @Flag(name: .long, help: "Print the version and the build id (a hash of this executable and its bundled data) and exit.")
    var version = false

    func run() throws {
        guard version else { throw CleanExit.helpRequest(Tonight.self) }
        let id = BuildIdentity.current
        print("tonight \(BuildIdentity.version) (build \(id.id); executable sha256 \(id.binary), geotable sha256 \(id.resources[.geotable] ?? "-"))")
    }

    /// Maps every failure to the documented exit codes (usage errors are 2, not 64).
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let e as TonightError {
            CommandOutput.error(e, exitCode: e.exitCode)
            Foundation.exit(e.exitCode)
        } catch let f as FailureWithRejects {
            CommandOutput.error(f.error, exitCode: f.error.exitCode)
            Foundation.exit(f.error.exitCode)
        } catch let e as SnapshotError {
            // The reader's errors: a missing, malformed or corrupt snapshot is invalid data (65),
            // a bad argument a usage error (2), a failed read an I/O error (74).
            let mapped = TonightError(e)
            if CommandOutput.json {
                CommandOutput.error(mapped, exitCode: mapped.exitCode)
            } else {
                FileHandle.standardError.write(Data("tonight: error: \(Quoted.line(e.description))\n".utf8))
            }
            Foundation.exit(mapped.exitCode)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            if let e = error as? ExitCode { Foundation.exit(e.rawValue) }
            let status = code == .validationFailure ? 2 : code.rawValue
            CommandOutput.error(message: fullMessage(for: error), exitCode: status)
            Foundation.exit(status)
        }
    }
}
