// SPDX-License-Identifier: MIT
#pragma once

#include "ssh/sshprompts.h"

#include <QDialog>

class QPushButton;

namespace pd {

// Shown when a node presents a host key that known_hosts does not hold. The operator compares the
// SHA256 fingerprint with the node's own (`ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub` on
// the node's console) and trusts it explicitly; "Refuse" is the default button.
class HostKeyTrustDialog final : public QDialog {
    Q_OBJECT
public:
    explicit HostKeyTrustDialog(const HostKeyInfo &key, QWidget *parent = nullptr);
    QPushButton *trustButton() const { return m_trust; }
    QPushButton *refuseButton() const { return m_refuse; }

private:
    QPushButton *m_trust;
    QPushButton *m_refuse;
};

} // namespace pd
