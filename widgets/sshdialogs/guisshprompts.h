// SPDX-License-Identifier: MIT
#pragma once

#include "ssh/sshprompts.h"

#include <QObject>
#include <QPointer>

class QWidget;

namespace pd {

// SshPrompts answered by the operator: the SSH pool's worker thread asks, this object (living on
// the GUI thread) opens a window-modal dialog with open() - no nested event loop - and the worker
// waits for the answer. A dialog closed or destroyed without an answer counts as "refuse".
// The passphrase is typed into a password field and handed over once; nothing keeps it.
class GuiSshPrompts final : public QObject, public SshPrompts {
    Q_OBJECT
public:
    explicit GuiSshPrompts(QWidget *dialogParent, QObject *parent = nullptr);

    bool trustNewHostKey(const HostKeyInfo &key) override;
    std::optional<QByteArray> passphrase(const QString &node, const QString &prompt) override;

Q_SIGNALS:
    void dialogOpened(QWidget *dialog); // for tests and screenshots

private:
    QPointer<QWidget> m_dialogParent;
};

} // namespace pd
