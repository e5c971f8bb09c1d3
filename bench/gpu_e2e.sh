#!/usr/bin/env bash
# A full Task 2 on one GPU machine: an open model under test and an open grader, each on its own
# vLLM server (127.0.0.1), then the throughput and the metrics. docs/running.md#on-gpus explains
# the settings. Needs `pip install vllm` and this package (`pip install -e .`) in the environment.
#
#   MODEL=Qwen/Qwen2.5-7B-Instruct GRADER=Qwen/Qwen2.5-7B-Instruct DATA=uxbench-data bash bench/gpu_e2e.sh
#
# Both servers share the visible GPUs (MEM of each GPU's memory each); TP = tensor parallel size.
set -euo pipefail
MODEL=${MODEL:-Qwen/Qwen2.5-7B-Instruct}
GRADER=${GRADER:-Qwen/Qwen2.5-7B-Instruct}
DATA=${DATA:-hub}            # hub (accept the dataset's terms), a local copy, or sample
TP=${TP:-1}
MEM=${MEM:-0.45}
CONNECTIONS=${CONNECTIONS:-128}
MAX_TOKENS=${MAX_TOKENS:-1024}
OUT=${OUT:-gpu-e2e-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"

pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; wait || true' EXIT
serve() {  # name port model
    vllm serve "$3" --served-model-name "$1" --host 127.0.0.1 --port "$2" --tensor-parallel-size "$TP" \
        --gpu-memory-utilization "$MEM" --max-model-len 16384 --max-logprobs 20 \
        --enable-prefix-caching >"$OUT/$1.log" 2>&1 &
    pids+=($!)
}
started=$SECONDS
serve mut 8001 "$MODEL"
serve grm 8002 "$GRADER"
for port in 8001 8002; do
    until curl -sf "http://127.0.0.1:$port/health" >/dev/null; do
        kill -0 "${pids[@]}" || { echo "a vLLM server exited; see $OUT/*.log" >&2; exit 1; }
        (( SECONDS - started < 1800 )) || { echo "vLLM not ready after 30 min; see $OUT/*.log" >&2; exit 1; }
        sleep 5
    done
done
echo "servers ready in $((SECONDS - started)) s"

export MUT_BASE_URL=http://127.0.0.1:8001/v1 MUT_API_KEY=unused
export GRM_BASE_URL=http://127.0.0.1:8002/v1 GRM_API_KEY=unused
inspect eval uxbench/task2_eval --model "openai-api/mut/mut" --model-role grader=openai-api/grm/grm \
    -T data="$DATA" --max-connections "$CONNECTIONS" --max-tokens "$MAX_TOKENS" \
    --log-dir "$OUT/logs" --display none "$@"

python - "$OUT/logs" <<'PY'
import sys
from datetime import datetime
from inspect_ai.log import list_eval_logs, read_eval_log

log = read_eval_log(list_eval_logs(sys.argv[1])[0], header_only=True)
seconds = (datetime.fromisoformat(log.stats.completed_at) - datetime.fromisoformat(log.stats.started_at)).total_seconds()
done = log.results.completed_samples if log.results else 0
print(f"status {log.status}: {done} records in {seconds:.0f} s = {done / max(seconds, 1e-9):.2f} records/s")
for score in log.results.scores if log.results else []:
    for name, metric in score.metrics.items():
        if ":" not in name:
            print(f"{name:>20} {metric.value:.4f}")
sys.exit(0 if log.status == "success" else 1)
PY
