// SPDX-License-Identifier: MIT
#pragma once

#include "proxyscheduler.h"

#include <QByteArray>
#include <QStringList>

namespace pd::sim {

// The answer of an admin endpoint before it goes on the wire, plus the lines the proxy logs.
struct AdminReply {
    int status = 200;
    QByteArray contentType;
    QByteArray body;
    QStringList logLines; // logger lines (INFO)

    static AdminReply internalServerError(); // 500 text/plain "Internal Server Error"
};

// /instances/add and /instances/remove of the proxy at main HEAD (spec §2.2, §2.3): body parsing,
// identity normalisation, waiting/taint decisions, message texts and the response object.
class InstanceAdmin final {
public:
    static AdminReply add(ProxyScheduler &scheduler, const QByteArray &body);
    static AdminReply remove(ProxyScheduler &scheduler, const QByteArray &body);
    // {"message":...,"current_prefill_instances":[...],"current_decode_instances":[...]}
    static QByteArray listsResponse(const ProxyScheduler &scheduler, const QString &message);
};

} // namespace pd::sim
