; Included by electron-builder's NSIS installer (nsis.include in electron-builder.yml).
; electron-builder's NSIS target does not register URL protocols: register spades:// here so the browser can hand the
; Discord login callback (spades://auth/callback?token=…) and table links (spades://table/<id>) to the app.
; SHELL_CONTEXT is HKCU for per-user installs and HKLM for per-machine ones.

!macro customInstall
  DeleteRegKey SHELL_CONTEXT "Software\Classes\spades"
  WriteRegStr SHELL_CONTEXT "Software\Classes\spades" "" "URL:Spades"
  WriteRegStr SHELL_CONTEXT "Software\Classes\spades" "URL Protocol" ""
  WriteRegStr SHELL_CONTEXT "Software\Classes\spades\DefaultIcon" "" "$appExe,0"
  WriteRegStr SHELL_CONTEXT "Software\Classes\spades\shell\open\command" "" '"$appExe" "%1"'
!macroend

!macro customUnInstall
  DeleteRegKey SHELL_CONTEXT "Software\Classes\spades"
!macroend
