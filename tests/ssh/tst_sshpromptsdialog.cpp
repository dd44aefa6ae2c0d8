// SPDX-License-Identifier: MIT
// The console's answers to the SSH layer's questions: a worker thread asks, the dialog shows the
// fingerprint, the operator's click (or closing the dialog) is the answer.
#include "sshdialogs/guisshprompts.h"
#include "sshdialogs/hostkeytrustdialog.h"

#include <QApplication>
#include <QInputDialog>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

#include <future>

class TstSshPromptsDialog : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void trustShowsFingerprintAndAnswersYes();
    void closingTheDialogRefuses();
    void profileTextIsNeverMarkup();
    void passphraseIsHandedOverOnce();
    void cancelledPassphraseIsNoAnswer();

private:
    pd::HostKeyInfo key() const;
};

pd::HostKeyInfo TstSshPromptsDialog::key() const
{
    pd::HostKeyInfo info;
    info.node = QStringLiteral("decode-3");
    info.host = QStringLiteral("10.20.0.13");
    info.port = 22;
    info.keyType = QStringLiteral("ssh-ed25519");
    info.fingerprint = QStringLiteral("SHA256:Qm8fG0x3h8C1mDk5ZbqJ0nq3C1yqO7uTq4y2kSx1bGQ");
    info.knownHostsPath = QStringLiteral("/home/ops/.ssh/known_hosts");
    return info;
}

void TstSshPromptsDialog::trustShowsFingerprintAndAnswersYes()
{
    QWidget window;
    window.resize(900, 600);
    pd::GuiSshPrompts prompts(&window);
    QSignalSpy opened(&prompts, &pd::GuiSshPrompts::dialogOpened);
    const pd::HostKeyInfo info = key();
    std::future<bool> answer = std::async(std::launch::async, [&] { return prompts.trustNewHostKey(info); });
    QVERIFY(opened.wait(5000));
    auto *dialog = qobject_cast<pd::HostKeyTrustDialog *>(opened.first().first().value<QWidget *>());
    QVERIFY(dialog);
    auto *fingerprint = dialog->findChild<QLabel *>(QStringLiteral("fingerprint"));
    QVERIFY(fingerprint);
    QCOMPARE(fingerprint->text(), info.fingerprint);
    QVERIFY(dialog->refuseButton()->isDefault());
    dialog->adjustSize();
    dialog->grab().save(QStringLiteral(PD_BINARY_DIR "/hostkeytrustdialog.png"));
    QTest::mouseClick(dialog->trustButton(), Qt::LeftButton);
    QTRY_VERIFY(answer.wait_for(std::chrono::seconds(0)) == std::future_status::ready);
    QVERIFY(answer.get());
}

void TstSshPromptsDialog::closingTheDialogRefuses()
{
    QWidget window;
    pd::GuiSshPrompts prompts(&window);
    QSignalSpy opened(&prompts, &pd::GuiSshPrompts::dialogOpened);
    const pd::HostKeyInfo info = key();
    std::future<bool> answer = std::async(std::launch::async, [&] { return prompts.trustNewHostKey(info); });
    QVERIFY(opened.wait(5000));
    opened.first().first().value<QWidget *>()->close();
    QTRY_VERIFY(answer.wait_for(std::chrono::seconds(0)) == std::future_status::ready);
    QVERIFY(!answer.get());
}

// Node names and paths come from a profile someone else wrote: markup in them is shown, not rendered
// (a fake fingerprint in an <img> or a styled line would mislead the operator deciding to trust).
void TstSshPromptsDialog::profileTextIsNeverMarkup()
{
    pd::HostKeyInfo info = key();
    info.node = QStringLiteral("<b>trusted</b><br>SHA256:fake");
    info.knownHostsPath = QStringLiteral("<img src=x>");
    pd::HostKeyTrustDialog dialog(info);
    int checked = 0;
    for (QLabel *label : dialog.findChildren<QLabel *>()) {
        if (label->text() == info.node || label->text() == info.knownHostsPath) {
            QCOMPARE(label->textFormat(), Qt::PlainText);
            ++checked;
        } else if (label->text().contains(QLatin1String("trusted"))) {
            // The introduction is rich text of our own: the name in it must arrive escaped.
            QVERIFY2(label->text().contains(info.node.toHtmlEscaped()), qPrintable(label->text()));
            ++checked;
        }
    }
    QCOMPARE(checked, 3);
}

void TstSshPromptsDialog::passphraseIsHandedOverOnce()
{
    QWidget window;
    pd::GuiSshPrompts prompts(&window);
    QSignalSpy opened(&prompts, &pd::GuiSshPrompts::dialogOpened);
    std::future<std::optional<QByteArray>> answer = std::async(std::launch::async, [&] {
        return prompts.passphrase(QStringLiteral("decode-3"), QStringLiteral("Passphrase for ~/.ssh/id_ed25519:"));
    });
    QVERIFY(opened.wait(5000));
    auto *dialog = qobject_cast<QInputDialog *>(opened.first().first().value<QWidget *>());
    QVERIFY(dialog);
    QCOMPARE(dialog->textEchoMode(), QLineEdit::Password);
    dialog->setTextValue(QStringLiteral("s3cret pässword"));
    dialog->accept();
    QTRY_VERIFY(answer.wait_for(std::chrono::seconds(0)) == std::future_status::ready);
    const std::optional<QByteArray> value = answer.get();
    QVERIFY(value.has_value());
    QCOMPARE(*value, QStringLiteral("s3cret pässword").toUtf8());
}

void TstSshPromptsDialog::cancelledPassphraseIsNoAnswer()
{
    QWidget window;
    pd::GuiSshPrompts prompts(&window);
    QSignalSpy opened(&prompts, &pd::GuiSshPrompts::dialogOpened);
    std::future<std::optional<QByteArray>> answer
        = std::async(std::launch::async, [&] { return prompts.passphrase(QStringLiteral("decode-3"), QString()); });
    QVERIFY(opened.wait(5000));
    qobject_cast<QDialog *>(opened.first().first().value<QWidget *>())->reject();
    QTRY_VERIFY(answer.wait_for(std::chrono::seconds(0)) == std::future_status::ready);
    QVERIFY(!answer.get().has_value());
}

QTEST_MAIN(TstSshPromptsDialog)
#include "tst_sshpromptsdialog.moc"
