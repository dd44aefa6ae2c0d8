// SPDX-License-Identifier: MIT
#include "guisshprompts.h"

#include "hostkeytrustdialog.h"

#include <QInputDialog>
#include <QLineEdit>
#include <QThread>

#include <future>

namespace pd {

namespace {

// Sets the answer exactly once: from the dialog, or "no" when the dialog goes away unanswered.
template<typename T> class Answer {
public:
    explicit Answer(T unanswered)
        : m_unanswered(std::move(unanswered))
    {
    }
    ~Answer() { give(m_unanswered); }
    void give(T value)
    {
        if (!m_given) {
            m_given = true;
            m_promise.set_value(std::move(value));
        }
    }
    std::future<T> future() { return m_promise.get_future(); }

private:
    std::promise<T> m_promise;
    T m_unanswered;
    bool m_given = false;
};

} // namespace

GuiSshPrompts::GuiSshPrompts(QWidget *dialogParent, QObject *parent)
    : QObject(parent)
    , m_dialogParent(dialogParent)
{
}

bool GuiSshPrompts::trustNewHostKey(const HostKeyInfo &key)
{
    Q_ASSERT(QThread::currentThread() != thread()); // asked from the SSH pool, never the GUI
    auto answer = std::make_shared<Answer<bool>>(false);
    std::future<bool> result = answer->future();
    QMetaObject::invokeMethod(
        this,
        [this, key, answer]() mutable {
            auto *dialog = new HostKeyTrustDialog(key, m_dialogParent);
            dialog->setAttribute(Qt::WA_DeleteOnClose);
            connect(
                dialog, &QDialog::finished, dialog, [answer](int code) { answer->give(code == QDialog::Accepted); });
            connect(dialog, &QObject::destroyed, dialog, [answer] { answer->give(false); });
            answer.reset(); // the dialog's connections own it now
            dialog->open();
            Q_EMIT dialogOpened(dialog);
        },
        Qt::QueuedConnection);
    return result.get();
}

std::optional<QByteArray> GuiSshPrompts::passphrase(const QString &node, const QString &prompt)
{
    Q_ASSERT(QThread::currentThread() != thread());
    auto answer = std::make_shared<Answer<std::optional<QByteArray>>>(std::nullopt);
    std::future<std::optional<QByteArray>> result = answer->future();
    QMetaObject::invokeMethod(
        this,
        [this, node, prompt, answer]() mutable {
            auto *dialog = new QInputDialog(m_dialogParent);
            dialog->setAttribute(Qt::WA_DeleteOnClose);
            dialog->setWindowTitle(tr("Passphrase for %1").arg(node));
            dialog->setLabelText(prompt.isEmpty() ? tr("Passphrase of the SSH identity file:") : prompt);
            dialog->setTextEchoMode(QLineEdit::Password);
            connect(dialog, &QInputDialog::finished, dialog, [dialog, answer](int code) {
                if (code != QDialog::Accepted) {
                    answer->give(std::nullopt);
                    return;
                }
                answer->give(dialog->textValue().toUtf8());
                dialog->setTextValue(QString()); // do not keep it in the widget
            });
            connect(dialog, &QObject::destroyed, dialog, [answer] { answer->give(std::nullopt); });
            answer.reset();
            dialog->open();
            Q_EMIT dialogOpened(dialog);
        },
        Qt::QueuedConnection);
    return result.get();
}

} // namespace pd
