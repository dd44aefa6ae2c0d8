// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"
#include "exec/commandrunner.h"

#include <QByteArray>
#include <QString>

#include <chrono>

// Reading and replacing a file on a node through its CommandRunner (no SFTP needed): `cat` to fetch;
// to upload, base64 in a quoted here-document to a temporary file beside the target, chmod, then an
// atomic mv, and the SHA-256 checked against what was sent. Blocking: worker threads only.
namespace pd {

struct RemoteFile {
    bool exists = false;
    QByteArray content;
    QString error; // transport or read error, naming the node and path
};

// Paths relative to `runDir` are read and written there.
RemoteFile fetchRemoteFile(CommandRunner &runner, const CommandTarget &target, const QString &runDir,
    const QString &path, std::chrono::milliseconds timeout);
// Empty on success, else the reason. `mode` as octal text ("755").
QString uploadRemoteFile(CommandRunner &runner, const CommandTarget &target, const QString &runDir, const QString &path,
    const QByteArray &content, const QString &mode, std::chrono::milliseconds timeout);

// The node's template as it is, the one the profile generates, and the diff between them.
struct ScriptPlan {
    QString node;
    QString path; // as shown: run_dir/template_path
    RemoteFile current;
    QByteArray generated;
    QStringList notes;
    QString error; // generation or fetch failed
    QString diff; // empty: identical

    bool needsUpload() const { return error.isEmpty() && (!current.exists || current.content != generated); }
};

ScriptPlan planTemplateScript(
    CommandRunner &runner, const Profile &profile, const Node &node, std::chrono::milliseconds timeout);
// Uploads plan.generated to the node (after the operator confirmed plan.diff). Empty on success.
QString applyTemplateScript(CommandRunner &runner, const Profile &profile, const Node &node, const ScriptPlan &plan,
    std::chrono::milliseconds timeout);

} // namespace pd
