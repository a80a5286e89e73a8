<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.2" tiledversion="1.3.0" name="beach" tilewidth="16" tileheight="16" tilecount="5" columns="5">
 <image source="beach.png" width="80" height="16"/>
 <tile id="0">
  <properties>
   <property name="terrain" value="sea"/>
  </properties>
 </tile>
 <tile id="1">
  <properties>
   <property name="terrain" value="sand"/>
  </properties>
 </tile>
 <tile id="2">
  <properties>
   <property name="terrain" value="grass"/>
  </properties>
 </tile>
 <tile id="3">
  <properties>
   <property name="terrain" value="rock"/>
  </properties>
 </tile>
 <tile id="4">
  <properties>
   <property name="terrain" value="palm"/>
  </properties>
 </tile>
</tileset>
