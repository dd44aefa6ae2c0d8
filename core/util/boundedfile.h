// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>

// Reading a file someone else named (a profile, the CA file a profile names) without trusting it: only a
// regular file (a FIFO would block the reader for good, a device such as /dev/zero never ends), opened
// without blocking, at most `maxBytes` read. The error says which rule the file broke.
namespace pd {

struct BoundedFile {
    enum class Problem { None, CannotOpen, NotRegular, TooLarge, CannotRead };
    QByteArray bytes;
    Problem problem = Problem::None;
    QString error; // "<path>: not a regular file (a FIFO)", "<path>: 5.2 MB, more than 4.0 MB", ...
    QString reason; // the same without the path: "No such file or directory", "a FIFO", ...
    qint64 size = 0; // the file's size when it was stat'ed
    bool ok() const { return problem == Problem::None; }
};

BoundedFile readBoundedRegularFile(const QString &path, qint64 maxBytes);

} // namespace pd
