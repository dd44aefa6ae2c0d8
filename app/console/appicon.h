// SPDX-License-Identifier: MIT
#pragma once

#include <QIcon>

// The application icon (resources/icons/pdconsole.svg, the one the .desktop file names), rendered with
// QSvgRenderer at the sizes window managers ask for, so it shows without Qt's SVG icon-engine plugin.
QIcon pdconsoleAppIcon();
