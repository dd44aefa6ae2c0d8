# SPDX-License-Identifier: MIT
# Shared by the fake hccn_tool and npu-smi: reads the fault selection and answers questions about it.
# Every setting can come from the environment or from the file named by FAKE_ASCEND_CONF (shell
# assignments, sourced), so one machine can play several nodes with different faults. A conf file
# may key its settings on PDCONSOLE_NODE, the node whose shell this is (demo.conf does).
#
#   FAKE_ASCEND_GEN=A2|A3        platform (8 devices / 16 dies)            default A2
#   FAKE_ASCEND_NODE=N           node number, used in every address       default 1
#   FAKE_ASCEND_DRIFT=old        older driver texts: "netdetect address:", no "tls preconfigured", narrower npu-smi
#   FAKE_LINK_DOWN="3 5"         devices whose link is DOWN (A3: vnic stays UP)
#   FAKE_NET_HEALTH="3=Fault"    net health per device (Success otherwise)
#   FAKE_NETDETECT_ZERO="2"      netdetect addr 0.0.0.0
#   FAKE_NO_GATEWAY="1"          -gateway -g fails (no gateway preset)
#   FAKE_NO_IP="6"               -ip -g fails (no ip preset)
#   FAKE_NO_LLDP="7"             -lldp -g prints nothing
#   FAKE_VNIC_DOWN="4"           vnic link status: DOWN
#   FAKE_TLS_ON="5"              tls switch[1] on these devices; FAKE_TLS_ON=all for every device
#   FAKE_TLS_DENIED=1            -tls -g: permission denied
#   FAKE_HEALTH="2=Warning"      npu-smi health per hccn device (OK otherwise)
#   FAKE_PING_LOSS="4=partial 5=total"
#   FAKE_HCCS_L1="3"             hccs_ping reports a faulty L1 plane
#   FAKE_BUSY="2"                hccn_tool is busy for this device
#   FAKE_NPUSMI_ERROR=dcmi|nocard npu-smi info fails
#   FAKE_IP_OVERRIDE="3=29.1.1.13" a fixed device address (to make duplicates)
#   FAKE_SLEEP=SECONDS           every hccn_tool call sleeps first (timeouts)
#   FAKE_LOG=FILE                append every invocation (tests count round trips)
if [ -n "${FAKE_ASCEND_CONF:-}" ] && [ -r "$FAKE_ASCEND_CONF" ]; then
    . "$FAKE_ASCEND_CONF"
fi
: "${FAKE_ASCEND_GEN:=A2}" "${FAKE_ASCEND_NODE:=1}"
if [ "$FAKE_ASCEND_GEN" = A3 ]; then FAKE_DEVICES=16; else FAKE_DEVICES=8; fi

# in_list "LIST" ITEM: ITEM is one of the words of LIST ("all" matches everything)
in_list() {
    case " $1 " in *" $2 "* | *" all "*) return 0 ;; esac
    return 1
}
# value_of "LIST" KEY: the VALUE of KEY=VALUE in LIST
value_of() {
    for kv in $1; do
        case $kv in "$2="*) printf '%s\n' "${kv#*=}"; return 0 ;; esac
    done
    return 1
}
device_ip() {
    v=$(value_of "${FAKE_IP_OVERRIDE:-}" "$1") && { echo "$v"; return; }
    echo "29.1.$FAKE_ASCEND_NODE.$(($1 + 10))"
}
vnic_ip() { echo "192.168.$FAKE_ASCEND_NODE.$(($1 + 100))"; }
[ -n "${FAKE_LOG:-}" ] && echo "$(basename "$0") $*" >>"$FAKE_LOG"
true
