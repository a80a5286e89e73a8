<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="forest" tilewidth="32" tileheight="32" tilecount="4" columns="0">
 <grid orientation="orthogonal" width="1" height="1"/>
 <tile id="0">
  <image width="32" height="32" source="../images/grass.png"/>
 </tile>
 <tile id="1">
  <image width="32" height="32" source="../images/mud.png"/>
 </tile>
 <tile id="2">
  <image width="32" height="32" source="../images/oak_tree.png"/>
 </tile>
 <tile id="3">
  <image width="32" height="32" source="../images/bush.png"/>
 </tile>
</tileset>
