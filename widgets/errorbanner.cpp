// SPDX-License-Identifier: MIT
#include "errorbanner.h"
#include "apptheme.h"
#include "stateappearance.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace pd {

ErrorBanner::ErrorBanner(QWidget *parent)
    : QFrame(parent)
    , m_label(new QLabel(this))
{
    setObjectName(QStringLiteral("errorBanner"));
    const BarColors bad = toneBar(Tone::Bad, isDarkTheme());
    setStyleSheet(QStringLiteral("#errorBanner { background: %1; border: 1px solid %2; border-radius: 4px; }"
                                 "#errorBanner QLabel { color: %3; }")
                      .arg(bad.background.name(), toneInk(Tone::Bad, isDarkTheme()).name(), bad.text.name()));
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_label->setWordWrap(true);
    auto *close = new QToolButton(this);
    close->setText(QStringLiteral("✕"));
    close->setAutoRaise(true);
    close->setToolTip(tr("Dismiss"));
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 6, 6);
    layout->addWidget(m_label, 1);
    layout->addWidget(close, 0, Qt::AlignTop);
    hide();
}

void ErrorBanner::showMessage(const QString &title, const QStringList &details)
{
    QStringList lines = details.mid(0, 12);
    if (details.size() > 12)
        lines.append(tr("… and %n more", nullptr, int(details.size() - 12)));
    QString html = QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped());
    for (const QString &line : std::as_const(lines))
        html += QStringLiteral("<br><tt>%1</tt>").arg(line.toHtmlEscaped());
    m_label->setText(html);
    show();
}

QString ErrorBanner::text() const
{
    return m_label->text();
}

} // namespace pd
