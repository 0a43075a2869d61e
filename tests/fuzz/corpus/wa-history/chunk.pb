½
15550001111@s.whatsapp.net?
;
&
15550001111@s.whatsapp.net3EB0A1	
hi ğŸ‘‹€âÏª V
T
$
15550001111@s.whatsapp.net3EB0A22

Ù…Ø±Ø­Ø¨Ø§Š
3EB0A1
hiâÏªšZoÃ«0jZoÃ«‡
120363000000000009@g.usH
F
=
120363000000000009@g.us3EB0B1"15550001111@s.whatsapp.netÀÒxjG¢
15550001111@s.whatsapp.net(0
:"
15550001111@s.whatsapp.netZoÃ«z1
15550001111@s.whatsapp.net100000000001111@lid