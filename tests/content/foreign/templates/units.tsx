<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="units" tilewidth="32" tileheight="32" tilecount="2" columns="2">
 <image source="units.png" width="64" height="32"/>
</tileset>
