// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

// Text the real proxy produces with Python: reprs of strings and lists (messages), str() of JSON
// values (the invalid-type error), and FastAPI's compact JSON.
namespace pd::sim {

using OrderedJson = nlohmann::ordered_json;

// repr() of a Python str: single quotes unless the text holds a single quote and no double quote.
QString pythonRepr(const QString &text);
// repr() of a Python list of str: ['a', 'b'] ; [] when empty.
QString pythonListRepr(const QStringList &items);
// str() of a JSON value as Python would print the decoded object (None, True, 'x' inside containers).
QString pythonStr(const OrderedJson &value);

// FastAPI JSONResponse: compact separators, UTF-8 kept as is.
QByteArray compactJson(const OrderedJson &value);
// Python json.dumps() defaults: ", " and ": " separators, non-ASCII escaped as \uXXXX.
QByteArray pythonJsonDumps(const OrderedJson &value);

} // namespace pd::sim
