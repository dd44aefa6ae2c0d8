// SPDX-License-Identifier: MIT
#include "apptheme.h"

#include <QApplication>
#include <QPixmapCache>
#include <QStyle>
#include <QStyleFactory>

namespace pd {

QPalette lightPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(0xef, 0xf0, 0xf1));
    p.setColor(QPalette::WindowText, QColor(0x1b, 0x1f, 0x24));
    p.setColor(QPalette::Base, Qt::white);
    p.setColor(QPalette::AlternateBase, QColor(0xf5, 0xf6, 0xf7));
    p.setColor(QPalette::ToolTipBase, QColor(0xff, 0xfc, 0xe8));
    p.setColor(QPalette::ToolTipText, QColor(0x1b, 0x1f, 0x24));
    p.setColor(QPalette::PlaceholderText, QColor(0x6b, 0x72, 0x7b));
    p.setColor(QPalette::Text, QColor(0x1b, 0x1f, 0x24));
    p.setColor(QPalette::Button, QColor(0xe6, 0xe8, 0xea));
    p.setColor(QPalette::ButtonText, QColor(0x1b, 0x1f, 0x24));
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Light, Qt::white);
    p.setColor(QPalette::Midlight, QColor(0xd8, 0xdb, 0xdf));
    p.setColor(QPalette::Mid, QColor(0xb8, 0xbe, 0xc7));
    p.setColor(QPalette::Dark, QColor(0x8a, 0x91, 0x9c));
    p.setColor(QPalette::Shadow, QColor(0x5f, 0x66, 0x70));
    p.setColor(QPalette::Highlight, QColor(0x1f, 0x5f, 0xa8));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x1f, 0x5f, 0xa8));
    p.setColor(QPalette::LinkVisited, QColor(0x6a, 0x3d, 0x9a));
    for (const auto role : { QPalette::WindowText, QPalette::Text, QPalette::ButtonText })
        p.setColor(QPalette::Disabled, role, QColor(0x9a, 0xa0, 0xa8));
    return p;
}

QPalette darkPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x25, 0x28, 0x2c));
    p.setColor(QPalette::WindowText, QColor(0xe4, 0xe6, 0xe9));
    p.setColor(QPalette::Base, QColor(0x1b, 0x1e, 0x21));
    p.setColor(QPalette::AlternateBase, QColor(0x23, 0x27, 0x2b));
    p.setColor(QPalette::ToolTipBase, QColor(0x32, 0x36, 0x3b));
    p.setColor(QPalette::ToolTipText, QColor(0xe4, 0xe6, 0xe9));
    p.setColor(QPalette::PlaceholderText, QColor(0x8d, 0x94, 0x9e));
    p.setColor(QPalette::Text, QColor(0xe4, 0xe6, 0xe9));
    p.setColor(QPalette::Button, QColor(0x31, 0x35, 0x3a));
    p.setColor(QPalette::ButtonText, QColor(0xe4, 0xe6, 0xe9));
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Light, QColor(0x45, 0x4a, 0x51));
    p.setColor(QPalette::Midlight, QColor(0x3a, 0x3f, 0x45));
    p.setColor(QPalette::Mid, QColor(0x4b, 0x51, 0x59));
    p.setColor(QPalette::Dark, QColor(0x15, 0x17, 0x1a));
    p.setColor(QPalette::Shadow, QColor(0x0a, 0x0b, 0x0c));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x7e, 0xd1));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x7d, 0xb3, 0xf0));
    p.setColor(QPalette::LinkVisited, QColor(0xc3, 0x9b, 0xeb));
    for (const auto role : { QPalette::WindowText, QPalette::Text, QPalette::ButtonText })
        p.setColor(QPalette::Disabled, role, QColor(0x6b, 0x72, 0x7b));
    return p;
}

void applyTheme(Theme theme)
{
    if (QStyle *fusion = QStyleFactory::create(QStringLiteral("Fusion")))
        QApplication::setStyle(fusion); // the application takes ownership
    switch (theme) {
    case Theme::Light:
        QApplication::setPalette(lightPalette());
        break;
    case Theme::Dark:
        QApplication::setPalette(darkPalette());
        break;
    case Theme::System:
        QApplication::setPalette(QApplication::style()->standardPalette());
        break;
    }
    QPixmapCache::clear(); // glyphs are cached per ink colour; the inks change with the theme
}

bool isDark(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightnessF() < 0.5;
}

bool isDarkTheme()
{
    return isDark(QApplication::palette());
}

} // namespace pd
