import Foundation
import Testing
import TonightCore
import Yams
@testable import TonightPipeline

/// The batch engines' files under Pipelines/: Kubernetes manifests checked against the API's
/// schemas by a real validator, and every file's shard count consistent with the others.
@Suite struct EngineFilesTests {
    static let pipelines = packageRoot.appendingPathComponent("Pipelines")
    static let manifests = ["kubernetes-indexed-job.yaml", "kubernetes-cronjob.yaml"]

    @Test(.enabled(if: ExternalTool.kubernetesValidate.isAvailable), arguments: manifests)
    func kubernetesManifestsValidate(_ name: String) throws {
        let r = try shell("kubernetes-validate --strict --quiet '\(Self.pipelines.appendingPathComponent(name).path)'", mergingStandardError: true)
        #expect(r.status == 0, "\(r.output)")
    }

    /// The validator is not a rubber stamp: a misspelt field and a wrong type fail it.
    @Test(.enabled(if: ExternalTool.kubernetesValidate.isAvailable), arguments: [
        ("parallelism: 4", "paralelism: 4"), ("completions: 4", "completions: four"),
    ])
    func theValidatorRejectsABrokenManifest(_ edit: (String, String)) throws {
        let text = try String(contentsOf: Self.pipelines.appendingPathComponent("kubernetes-indexed-job.yaml"), encoding: .utf8)
        #expect(text.contains(edit.0))
        let bad = temporaryDirectory().appendingPathComponent("bad.yaml")
        try text.replacingOccurrences(of: edit.0, with: edit.1).write(to: bad, atomically: true, encoding: .utf8)
        let r = try shell("kubernetes-validate --strict --quiet '\(bad.path)'", mergingStandardError: true)
        #expect(r.status != 0)
    }

    /// The Indexed Job: completions = parallelism = the N of every shard's `--shard` and of
    /// the merge's `--shards`; the merge waits for the shards' Job.
    @Test func theIndexedJobIsConsistent() throws {
        let text = try String(contentsOf: Self.pipelines.appendingPathComponent("kubernetes-indexed-job.yaml"), encoding: .utf8)
        let docs = try Array(Yams.load_all(yaml: text)).compactMap { $0 as? [String: Any] }
        func named(_ name: String) throws -> [String: Any] {
            try #require(docs.first { ($0["metadata"] as? [String: Any])?["name"] as? String == name && $0["kind"] as? String == "Job" })
        }
        let shards = try named("tonight-shards"), merge = try named("tonight-merge")
        let spec = try #require(shards["spec"] as? [String: Any])
        #expect(spec["completionMode"] as? String == "Indexed")
        let n = try #require(spec["completions"] as? Int)
        #expect(spec["parallelism"] as? Int == n)
        func containers(_ job: [String: Any], _ key: String = "containers") -> [[String: Any]] {
            (((job["spec"] as? [String: Any])?["template"] as? [String: Any])?["spec"] as? [String: Any])?[key] as? [[String: Any]] ?? []
        }
        let shardArgs = try #require(containers(shards).first?["args"] as? [String])
        #expect(shardArgs.first == "run")
        #expect(shardArgs.contains("$(JOB_COMPLETION_INDEX)/\(n)"))
        let mergeArgs = try #require(containers(merge).first?["args"] as? [String])
        #expect(mergeArgs.first == "merge")
        #expect(zip(mergeArgs, mergeArgs.dropFirst()).contains { $0 == "--shards" && $1 == String(n) })
        let wait = try #require(containers(merge, "initContainers").first?["args"] as? [String])
        #expect(wait.contains("job/tonight-shards"))
        // The index Kubernetes would give each pod resolves to a shard of n.
        for i in 0..<n {
            let shard = try Shard.resolve(flag: "\(i)/\(n)", environment: ["JOB_COMPLETION_INDEX": "\(i)"], configCount: 1)
            #expect(shard == (try Shard(index: i, count: n)))
        }
    }

    /// AWS Batch and Slurm read the count from Pipelines/sharded.yaml: it loads, and the arrays
    /// have that many tasks.
    @Test func arrayJobsMatchTheShardedConfig() throws {
        let config = try TonightConfig.load(Self.pipelines.appendingPathComponent("sharded.yaml"))
        let n = config[ConfigKeys.Sharding.count]
        #expect(n > 1)
        let sbatch = try String(contentsOf: Self.pipelines.appendingPathComponent("slurm-shards.sbatch"), encoding: .utf8)
        #expect(sbatch.contains("#SBATCH --array=0-\(n - 1)\n"))
        #expect(try shell("bash -n '\(Self.pipelines.appendingPathComponent("slurm-shards.sbatch").path)' && bash -n '\(Self.pipelines.appendingPathComponent("slurm-merge.sbatch").path)' && bash -n '\(Self.pipelines.appendingPathComponent("aws-batch-submit.sh").path)'").status == 0)
        let submit = try String(contentsOf: Self.pipelines.appendingPathComponent("aws-batch-submit.sh"), encoding: .utf8)
        #expect(submit.contains("n=${2:-\(n)}"))
        let definition = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.pipelines.appendingPathComponent("aws-batch-job-definition.json")))
        let d = try #require(definition as? [String: Any])
        let container = try #require(d["containerProperties"] as? [String: Any])
        let command = try #require(container["command"] as? [String])
        #expect(command.first == "Ref::command")
        #expect(command.contains("/srv/tonight/sharded.yaml"))
        // A task's index resolves with the config's count; one past the array is refused.
        #expect(try Shard.resolve(flag: nil, environment: ["AWS_BATCH_JOB_ARRAY_INDEX": "\(n - 1)"], configCount: n)?.index == n - 1)
        #expect(throws: TonightError.self) { try Shard.resolve(flag: nil, environment: ["SLURM_ARRAY_TASK_ID": "\(n)"], configCount: n) }
    }
}
