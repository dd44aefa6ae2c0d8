// SPDX-License-Identifier: MIT
#include "scale/poolscalecontrol.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace pd {

PoolScaleControl::PoolScaleControl(Role role, QWidget *parent)
    : QWidget(parent)
    , m_role(role)
    , m_title(new QLabel(this))
    , m_counts(new QLabel(this))
    , m_note(new QLabel(this))
    , m_spin(new QSpinBox(this))
    , m_apply(new QPushButton(tr("Apply…"), this))
{
    m_title->setText(role == Role::Decode ? tr("Decode pool") : tr("Prefill pool"));
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_spin->setRange(0, 0);
    m_spin->setToolTip(tr("Instances wanted in the proxy's %1 pool").arg(roleName(role)));
    m_spin->setAccessibleName(tr("%1 pool size").arg(roleName(role)));
    m_apply->setToolTip(tr("Show the plan and confirm"));
    auto *column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    auto *layout = new QHBoxLayout;
    layout->addWidget(m_title);
    layout->addWidget(m_counts, 1);
    layout->addWidget(new QLabel(tr("Scale to"), this));
    layout->addWidget(m_spin);
    layout->addWidget(m_apply);
    column->addLayout(layout);
    m_note->setObjectName(QStringLiteral("poolScaleNote"));
    m_note->setWordWrap(true);
    m_note->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_note->setVisible(false);
    column->addWidget(m_note);
    connect(m_spin, &QSpinBox::valueChanged, this, [this] {
        m_touched = true;
        updateState();
    });
    connect(m_apply, &QPushButton::clicked, this, [this] { Q_EMIT applyRequested(m_role, m_spin->value()); });
    updateState();
}

void PoolScaleControl::setMembership(int active, int waiting, int draining, int profileEngines)
{
    m_current = active + waiting;
    QStringList parts{tr("%n active", nullptr, active)};
    if (waiting)
        parts << tr("%n waiting", nullptr, waiting);
    if (draining)
        parts << tr("%n draining", nullptr, draining);
    parts << tr("of %n in the profile", nullptr, profileEngines);
    m_counts->setText(parts.join(QStringLiteral(", ")));
    m_draining = draining;
    const QSignalBlocker block(m_spin);
    m_spin->setMaximum(qMax(profileEngines, m_current));
    if (!m_touched)
        m_spin->setValue(m_current);
    updateState();
}

void PoolScaleControl::setReadOnly(bool readOnly)
{
    m_readOnly = readOnly;
    updateState();
}

void PoolScaleControl::setBusy(bool busy, const QString &what)
{
    m_busy = busy;
    m_busyWhat = what;
    updateState();
}

void PoolScaleControl::setDrain(const QDateTime &since, std::optional<int> inFlight)
{
    m_drainSince = since;
    m_inFlight = inFlight;
    updateState();
}

QString PoolScaleControl::noteText() const
{
    return m_note->isHidden() ? QString() : m_note->text();
}

int PoolScaleControl::target() const
{
    return m_spin->value();
}

void PoolScaleControl::setTarget(int n)
{
    m_spin->setValue(n);
}

void PoolScaleControl::updateState()
{
    const bool differs = m_spin->value() != m_current;
    m_apply->setEnabled(!m_readOnly && !m_busy && differs);
    m_spin->setEnabled(!m_readOnly);
    if (m_readOnly)
        m_apply->setToolTip(tr("Read-only mode: scaling is disabled"));
    else if (m_busy)
        m_apply->setToolTip(tr("Operations on this pool are running"));
    else
        m_apply->setToolTip(tr("Show the plan and confirm"));
    // The same reasons in the panel itself, with the way out.
    QStringList lines;
    if (m_readOnly)
        lines << tr("Scaling is off: read-only mode. Way out: untick Read-only at the top of this tab.");
    else if (m_busy)
        lines << (m_busyWhat.isEmpty()
                ? tr("Apply waits: an operation on this pool runs. Way out: let it finish, or Cancel it below.")
                : tr("Apply waits: %1 runs. Way out: let it finish, or Cancel it below.").arg(m_busyWhat));
    if (m_draining > 0 && m_drainSince.isValid())
        lines << tr(
            "%n instance(s) draining since %1, %2 request(s) in flight: a busy proxy removes them only when "
            "no request is in flight. Ways out: wait for a quiet moment; or scale up, which takes them back "
            "and restarts the proxy with its current lists if it stays busy (the requests in flight then fail).",
            nullptr, m_draining)
                     .arg(m_drainSince.toLocalTime().toString(QStringLiteral("HH:mm:ss")),
                         m_inFlight ? QString::number(*m_inFlight) : QStringLiteral("?"));
    m_note->setText(lines.join(QLatin1Char('\n')));
    m_note->setVisible(!lines.isEmpty());
}

} // namespace pd
