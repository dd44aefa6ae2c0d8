#!/bin/bash
# SPDX-License-Identifier: MIT
# A stand-in for vLLM-Ascend's run_dp_template.sh that starts a simulated engine (`pdsim engine`)
# instead of `vllm serve`. It takes the launcher's seven positional arguments and maps them the way
# the real templates do (spec proxy-api §9.2 for v0.9.1, §9.1 for main):
#   v0.9.1: dp_size  dp_master_ip  dp_master_port  local_rank  global_rank  serve_port  dp_size_local
#   main:   device_list  serve_port  dp_size  global_rank  dp_address  dp_rpc_port  tp_size
# pdconsole exports PDCONSOLE_LAUNCH_FLAVOR, PDCONSOLE_ROLE and PDCONSOLE_NODE_ADDRESS (the real
# template has the node's own address written in; on loopback every node is a different 127.0.0.x).
# PDSIM names the pdsim binary (default: pdsim on PATH); PDSIM_ENGINE_ARGS adds pdsim engine flags.
# The ranks of one DP group meet at the DP master address and port (--dp-size, --dp-master: a coupled
# group, docs/pdsim-engine.md "DP groups") when PDSIM_DP_COUPLING=coupled; otherwise every rank runs on
# its own (a dense model's replicas, and the behaviour before groups: the console does not yet pass the
# role's dp_coupling to the template).
set -eu
if [ "$#" -ne 7 ]; then
    echo "run_dp_template.sh: expected 7 arguments, got $#: $*" >&2
    exit 2
fi
flavor=${PDCONSOLE_LAUNCH_FLAVOR:-v0.9.1}
case $flavor in
v0.9.1)
    export VLLM_DP_SIZE=$1 VLLM_DP_MASTER_IP=$2 VLLM_DP_MASTER_PORT=$3 VLLM_DP_RANK_LOCAL=$4
    export VLLM_DP_RANK=$5 VLLM_DP_SIZE_LOCAL=$7
    export VLLM_WORKER_MULTIPROC_METHOD=fork VLLM_ASCEND_EXTERNAL_DP_LB_ENABLED=1
    port=$6
    rank=$5
    dp_size=$1
    dp_master=$2:$3
    metrics=0.9.1
    ;;
main)
    export ASCEND_RT_VISIBLE_DEVICES=$1
    port=$2
    rank=$4
    dp_size=$3
    dp_master=$5:$6
    metrics=main
    echo "data-parallel size $3 rank $4 address $5 rpc port $6, tensor-parallel size $7, devices $1"
    ;;
*)
    echo "run_dp_template.sh: unknown launch flavor '$flavor'" >&2
    exit 2
    ;;
esac
case $port$rank$dp_size in
*[!0-9]*)
    echo "run_dp_template.sh: port '$port' and rank '$rank' must be numbers" >&2
    exit 2
    ;;
esac
host=${PDCONSOLE_NODE_ADDRESS:-127.0.0.1}
role=${PDCONSOLE_ROLE:-decode}
group=
if [ "${PDSIM_DP_COUPLING:-independent}" = coupled ] && [ "$dp_size" -gt 1 ]; then
    group="--dp-size $dp_size --dp-master $dp_master"
fi
echo "run_dp_template.sh (pdsim, $flavor): $role engine, DP rank $rank, on $host:$port${group:+, group of $dp_size at $dp_master}"
# shellcheck disable=SC2086 # PDSIM_ENGINE_ARGS and group are lists of flags
exec "${PDSIM:-pdsim}" engine --host "$host" --port "$port" --role "$role" --dp-rank "$rank" \
    --metrics-flavor "$metrics" $group ${PDSIM_ENGINE_ARGS:-}
