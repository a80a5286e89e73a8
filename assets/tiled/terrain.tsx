<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="sim terrain" tilewidth="32" tileheight="32" tilecount="21" columns="0">
 <grid orientation="orthogonal" width="1" height="1"/>
 <tile id="0">
  <properties>
   <property name="kind" type="string" value="open"/>
  </properties>
  <image width="32" height="32" source="tiles/open.png"/>
 </tile>
 <tile id="1">
  <properties>
   <property name="kind" type="string" value="difficult"/>
  </properties>
  <image width="32" height="32" source="tiles/difficult.png"/>
 </tile>
 <tile id="2">
  <properties>
   <property name="kind" type="string" value="wall"/>
  </properties>
  <image width="32" height="32" source="tiles/wall.png"/>
 </tile>
 <tile id="3">
  <properties>
   <property name="kind" type="string" value="pit"/>
  </properties>
  <image width="32" height="32" source="tiles/pit.png"/>
 </tile>
 <tile id="4">
  <properties>
   <property name="kind" type="string" value="fire"/>
  </properties>
  <image width="32" height="32" source="tiles/fire.png"/>
 </tile>
 <tile id="5">
  <properties>
   <property name="kind" type="string" value="cover"/>
  </properties>
  <image width="32" height="32" source="tiles/cover.png"/>
 </tile>
 <tile id="6">
  <properties>
   <property name="elevation" type="float" value="0.5"/>
  </properties>
  <image width="32" height="32" source="tiles/elevation_0.5.png"/>
 </tile>
 <tile id="7">
  <properties>
   <property name="elevation" type="float" value="1.0"/>
  </properties>
  <image width="32" height="32" source="tiles/elevation_1.png"/>
 </tile>
 <tile id="8">
  <properties>
   <property name="elevation" type="float" value="1.5"/>
  </properties>
  <image width="32" height="32" source="tiles/elevation_1.5.png"/>
 </tile>
 <tile id="9">
  <properties>
   <property name="elevation" type="float" value="2.0"/>
  </properties>
  <image width="32" height="32" source="tiles/elevation_2.png"/>
 </tile>
 <tile id="10">
  <properties>
   <property name="elevation" type="float" value="3.0"/>
  </properties>
  <image width="32" height="32" source="tiles/elevation_3.png"/>
 </tile>
 <tile id="11">
  <properties>
   <property name="elevation" type="float" value="5.0"/>
  </properties>
  <image width="32" height="32" source="tiles/elevation_5.png"/>
 </tile>
 <tile id="12">
  <properties>
   <property name="elevation" type="float" value="10.0"/>
  </properties>
  <image width="32" height="32" source="tiles/elevation_10.png"/>
 </tile>
 <tile id="13">
  <properties>
   <property name="depth" type="float" value="0.5"/>
  </properties>
  <image width="32" height="32" source="tiles/depth_0.5.png"/>
 </tile>
 <tile id="14">
  <properties>
   <property name="depth" type="float" value="1.0"/>
  </properties>
  <image width="32" height="32" source="tiles/depth_1.png"/>
 </tile>
 <tile id="15">
  <properties>
   <property name="depth" type="float" value="1.5"/>
  </properties>
  <image width="32" height="32" source="tiles/depth_1.5.png"/>
 </tile>
 <tile id="16">
  <properties>
   <property name="depth" type="float" value="2.0"/>
  </properties>
  <image width="32" height="32" source="tiles/depth_2.png"/>
 </tile>
 <tile id="17">
  <properties>
   <property name="depth" type="float" value="3.0"/>
  </properties>
  <image width="32" height="32" source="tiles/depth_3.png"/>
 </tile>
 <tile id="18">
  <properties>
   <property name="obstacle" type="float" value="0.5"/>
  </properties>
  <image width="32" height="32" source="tiles/obstacle_0.5.png"/>
 </tile>
 <tile id="19">
  <properties>
   <property name="obstacle" type="float" value="1.0"/>
  </properties>
  <image width="32" height="32" source="tiles/obstacle_1.png"/>
 </tile>
 <tile id="20">
  <properties>
   <property name="climbable" type="bool" value="true"/>
  </properties>
  <image width="32" height="32" source="tiles/climbable.png"/>
 </tile>
</tileset>
