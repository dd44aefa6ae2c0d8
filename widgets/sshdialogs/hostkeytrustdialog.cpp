// SPDX-License-Identifier: MIT
#include "hostkeytrustdialog.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace pd {

HostKeyTrustDialog::HostKeyTrustDialog(const HostKeyInfo &key, QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Unknown host key: %1").arg(key.node));
    setMinimumWidth(620);
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("<b>%1</b> presents a host key that is not in your known_hosts file. Trust it only if "
                                "the fingerprint matches the one the node itself reports (on the node: "
                                "<tt>ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub</tt>).")
                                 .arg(key.node.toHtmlEscaped()),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto *form = new QFormLayout;
    const auto addRow = [&](const QString &label, const QString &value, bool fixed) {
        auto *field = new QLabel(value, this);
        field->setTextFormat(Qt::PlainText); // node names and paths come from a profile: never markup
        field->setTextInteractionFlags(Qt::TextSelectableByMouse);
        field->setObjectName(label);
        if (fixed)
            field->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        form->addRow(label, field);
        return field;
    };
    addRow(tr("Node"), key.node, false);
    addRow(tr("Address"), QStringLiteral("%1:%2").arg(key.host).arg(key.port), true);
    addRow(tr("Key type"), key.keyType, true);
    QLabel *fingerprint = addRow(tr("Fingerprint"), key.fingerprint, true);
    fingerprint->setObjectName(QStringLiteral("fingerprint"));
    QFont large = fingerprint->font();
    large.setPointSizeF(large.pointSizeF() * 1.15);
    large.setBold(true);
    fingerprint->setFont(large);
    addRow(tr("Will be added to"), key.knownHostsPath, true);
    layout->addLayout(form);

    auto *buttons = new QDialogButtonBox(this);
    m_trust = buttons->addButton(tr("Trust and connect"), QDialogButtonBox::AcceptRole);
    m_refuse = buttons->addButton(tr("Refuse"), QDialogButtonBox::RejectRole);
    m_refuse->setDefault(true);
    m_refuse->setFocus();
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

} // namespace pd
