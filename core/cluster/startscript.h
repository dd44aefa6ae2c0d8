// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <optional>

// Reads an operator's own engine start script (the two-node A2 guide's start_prefill.sh / start_decode.sh): its
// `export` lines, `source` lines and the `vllm serve` command (backslash continuations, quoted JSON,
// `--flag=value` and `--flag value`). Variables set earlier in the script are expanded in later lines
// ($NAME, ${NAME}, not inside single quotes); nothing is executed. What the command says becomes
// profile values through applyStartScript(); a flag pdconsole has no field for goes to extra_args, in
// order, never dropped.
namespace pd {

struct StartScriptSource {
    QString text;
    QString name;   // how messages name it: "start_prefill.sh", "141.61.41.163:/home/x/start_decode.sh"
    QString host;   // the node it runs on when the operator said so ([HOST:]FILE); empty: from the script
};

struct StartScript {
    QString name;
    QString host;                             // StartScriptSource::host
    QList<QPair<QString, QString>> exports;   // in order
    QStringList sourced;                      // `source FILE` / `. FILE`, in order
    QString modelPath;
    QStringList serveArgs;                    // the words after the model (or after `serve`)
    int serveLine = 0;                        // 1-based line where the command starts
};

// False with messages "NAME:LINE: ..." in *errors when the script has no `vllm serve` command, an
// unterminated quote, or a `vllm serve` without a model. Lines it does not read (cd, echo, set, ...)
// are skipped; commands it does not know are named in *warnings.
bool parseStartScript(const StartScriptSource &source, StartScript *out, QStringList *errors, QStringList *warnings);

// The engine layout the script's command starts on its node, and the node's address: the operator's
// HOST, else HCCL_IF_IP, else --data-parallel-address. Role from kv_transfer_config.kv_role.
struct StartScriptNode {
    QString address;
    Role role = Role::Prefill;
    EngineGroup group;
    QString localIp;    // HCCL_IF_IP
    QString nicName;    // GLOO/TP/HCCL_SOCKET_IFNAME
    RoleConfig config;  // model, lengths, seqs, memory, kv/additional/speculative config, extra args, env
};
// False with "NAME:LINE: ..." errors for a value that is not what its flag takes (JSON that does not
// parse, a length that is not a number, no kv_role).
bool readStartScript(const StartScript &script, StartScriptNode *out, QStringList *errors, QStringList *warnings);

// The variables derived from the node (HCCL_IF_IP and the *_SOCKET_IFNAME names) that pdconsole's launcher
// exports itself, so they are not kept in the role's env.
bool isNodeDerivedVariable(const QString &name);

} // namespace pd
