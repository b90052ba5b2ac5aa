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

    /// Every engine bounds a night, so that a run hung on a stalled disk or volume cannot
    /// block the nights after it: systemd's oneshot unit and a CronJob with `concurrencyPolicy:
    /// Forbid` wait forever without a bound, and cron's later nights would exit 75 on the held
    /// lock. The single-machine files bound a run at 4 h (until 2026-11-28 none did; the
    /// sharded ones had theirs); each stops it with SIGTERM first (tonight keeps CURRENT).
    @Test func everyEngineBoundsANight() throws {
        func text(_ name: String) throws -> String {
            try String(contentsOf: Self.pipelines.appendingPathComponent(name), encoding: .utf8)
        }
        let unit = try text("tonight.service")
        #expect(unit.contains("\nType=oneshot\n") && unit.contains("\nTimeoutStartSec=4h\n"))
        #expect(unit.range(of: "\nTimeoutStopSec=[0-9]+min\n", options: .regularExpression) != nil)
        func jobSpec(_ doc: Any?) -> [String: Any]? { (doc as? [String: Any])?["spec"] as? [String: Any] }
        let cron = jobSpec(try Yams.load(yaml: text("kubernetes-cronjob.yaml")))
        #expect(cron?["concurrencyPolicy"] as? String == "Forbid")
        #expect(jobSpec(cron?["jobTemplate"])?["activeDeadlineSeconds"] as? Int == 4 * 3600)
        let entries = try text("crontab").split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
        #expect(!entries.isEmpty && entries.allSatisfy { $0.contains("timeout --kill-after=2m 4h /usr/local/bin/tonight ") }, "\(entries)")
        let indexed = try Array(Yams.load_all(yaml: text("kubernetes-indexed-job.yaml"))).filter { ($0 as? [String: Any])?["kind"] as? String == "Job" }
        #expect(indexed.count == 2 && indexed.allSatisfy { (jobSpec($0)?["activeDeadlineSeconds"] as? Int ?? 0) > 0 })
        for sbatch in ["slurm-shards.sbatch", "slurm-merge.sbatch"] {
            #expect(try text(sbatch).range(of: "\n#SBATCH --time=[0-9]{2}:[0-9]{2}:[0-9]{2}\n", options: .regularExpression) != nil, "\(sbatch)")
        }
        let batch = try JSONSerialization.jsonObject(with: Data(text("aws-batch-job-definition.json").utf8)) as? [String: Any]
        #expect(((batch?["timeout"] as? [String: Any])?["attemptDurationSeconds"] as? Int ?? 0) > 0)
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
