// SPDX-License-Identifier: MIT
#include "apptheme.h"

#include <QApplication>
#include <QPixmapCache>
#include <QStyle>
#include <QStyleFactory>

namespace pd {

namespace {

// Each palette role's colour in the light and the dark theme, side by side.
struct RoleColours {
    QPalette::ColorRole role;
    QRgb light;
    QRgb dark;
};

constexpr RoleColours kRoleColours[] = {
    { QPalette::Window, 0xeff0f1, 0x25282c },
    { QPalette::WindowText, 0x1b1f24, 0xe4e6e9 },
    { QPalette::Base, 0xffffff, 0x1b1e21 },
    { QPalette::AlternateBase, 0xf5f6f7, 0x23272b },
    { QPalette::ToolTipBase, 0xfffce8, 0x32363b },
    { QPalette::ToolTipText, 0x1b1f24, 0xe4e6e9 },
    { QPalette::PlaceholderText, 0x6b727b, 0x8d949e },
    { QPalette::Text, 0x1b1f24, 0xe4e6e9 },
    { QPalette::Button, 0xe6e8ea, 0x31353a },
    { QPalette::ButtonText, 0x1b1f24, 0xe4e6e9 },
    { QPalette::BrightText, 0xff0000, 0xff6b6b },
    { QPalette::Light, 0xffffff, 0x454a51 },
    { QPalette::Midlight, 0xd8dbdf, 0x3a3f45 },
    { QPalette::Mid, 0xb8bec7, 0x4b5159 },
    { QPalette::Dark, 0x8a919c, 0x15171a },
    { QPalette::Shadow, 0x5f6670, 0x0a0b0c },
    { QPalette::Highlight, 0x1f5fa8, 0x3d7ed1 },
    { QPalette::HighlightedText, 0xffffff, 0xffffff },
    { QPalette::Link, 0x1f5fa8, 0x7db3f0 },
    { QPalette::LinkVisited, 0x6a3d9a, 0xc39beb },
};

// Text of disabled widgets (window text, text, button text).
constexpr RoleColours kDisabledText { QPalette::Text, 0x9aa0a8, 0x6b727b };

QPalette themePalette(bool dark)
{
    QPalette p;
    for (const RoleColours &c : kRoleColours)
        p.setColor(c.role, QColor::fromRgb(dark ? c.dark : c.light));
    const QColor disabled = QColor::fromRgb(dark ? kDisabledText.dark : kDisabledText.light);
    for (const auto role : { QPalette::WindowText, QPalette::Text, QPalette::ButtonText })
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}

} // namespace

QPalette lightPalette()
{
    return themePalette(false);
}

QPalette darkPalette()
{
    return themePalette(true);
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
