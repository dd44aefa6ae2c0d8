<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<!-- A tiny translation for tst_translations: the window title without a profile. -->
<TS version="2.1" language="zh_CN">
<context>
    <name>pd::MainWindow</name>
    <message>
        <source>pdconsole</source>
        <translation>pdconsole 控制台</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
</context>
</TS>
