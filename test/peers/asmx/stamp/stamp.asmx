<%@ WebService Language="C#" Class="Peers.StampService" %>
