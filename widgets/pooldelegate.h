// SPDX-License-Identifier: MIT
#pragma once

#include "celldelegate.h"

namespace pd {

// A delegate that paints a row's pool (prefill / decode) as a coloured tag with its name, from PoolRole.
CellDelegate *newPoolDelegate(QObject *parent);

} // namespace pd
