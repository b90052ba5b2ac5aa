#!/usr/bin/env bash
# AWS Batch: one night of Tonight as an array job of N shards, then the merge.
#
# Pipelines/aws-batch-job-definition.json is the job definition (register it once:
#   aws batch register-job-definition --cli-input-json file://Pipelines/aws-batch-job-definition.json).
# The shared work directory and snapshot root are an EFS file system mounted at /srv/tonight
# on every task; /srv/tonight/sharded.yaml is Pipelines/sharded.yaml, whose sharding.count
# must equal the array size below. Each child task gets its index in AWS_BATCH_JOB_ARRAY_INDEX;
# tonight reads it, runs (or reuses) the shared stages, ranks its users and writes its
# success record. The merge job depends on the whole array: it starts only when every child
# has succeeded, and refuses (exit 65, not retried) if a part is missing, stale or corrupt.
#
#   Pipelines/aws-batch-submit.sh QUEUE [N]
set -euo pipefail
queue=${1:?usage: aws-batch-submit.sh QUEUE [N]}
n=${2:-8}
shards=$(aws batch submit-job --job-name tonight-shards --job-queue "$queue" --job-definition tonight \
  --array-properties "size=$n" --parameters command=run --query jobId --output text)
echo "shards: array job $shards ($n children)"
merge=$(aws batch submit-job --job-name tonight-merge --job-queue "$queue" --job-definition tonight \
  --depends-on "jobId=$shards" --parameters command=merge --query jobId --output text)
echo "merge: job $merge (after $shards)"
