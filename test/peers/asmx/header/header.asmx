<%@ WebService Language="C#" Class="Peers.HeaderService" %>
