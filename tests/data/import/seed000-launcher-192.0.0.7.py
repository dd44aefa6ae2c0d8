import multiprocessing
import os
import sys
dp_size = 64  # 当前 DP 组的引擎总数
dp_size_local = 16  # 当前节点上的 DP 引擎数
dp_rank_start = 32  # 当前节点的起始 DP rank
dp_ip = "192.0.0.5"  # DP 通信的 master 节点 IP
dp_port = 13395  # DP 通信使用的端口
engine_port = 9000  # 当前节点所有 DP 组的起始端口
template_path = "./run_dp_template.sh"
if not os.path.exists(template_path):
    print(f"Template file {template_path} does not exist.")
    sys.exit(1)
